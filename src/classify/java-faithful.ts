// Where the emitted JS would still disagree with Java, found on the tree and reported instead of
// guessed: captures that Java keeps from an earlier iteration (JS clears them), and back references
// that Java treats differently (case folding, groups that did not participate or are still open).
import { hasCapture, type Node, type ParsedPattern, type Unfaithful } from './java-ast.js';
import { nullable } from './backtracking.js';

interface Ctx {
  /** The node may be skipped entirely (alternation, optional quantifier, negative look-around). */
  optional: boolean;
  /** Inside a repetition, and on a path that one iteration may skip. */
  repeatedOptional: boolean;
  inRepeat: boolean;
}

export function findUnfaithful(parsed: ParsedPattern): Unfaithful[] {
  const out = capturesAndBackrefs(parsed);
  emptyIterationsInAtomic(parsed.root, false, out);
  return out;
}

function capturesAndBackrefs(parsed: ParsedPattern): Unfaithful[] {
  // Every finding below needs a back reference or a capture inside a repetition; most parsers
  // have neither (the parser records both), and then the walk would find nothing.
  if (!parsed.hasBackref && !parsed.repeatedCapture) return [];
  const { root, groupCount } = parsed;
  const out: Unfaithful[] = [];
  const closed = new Map<number, boolean>(); // group number -> could it not participate
  const open = new Set<number>();
  const walk = (node: Node, ctx: Ctx): void => {
    switch (node.type) {
      case 'seq': for (const n of node.items) walk(n, ctx); return;
      case 'alt': {
        const inner = { ...ctx, optional: true, repeatedOptional: ctx.repeatedOptional || ctx.inRepeat };
        for (const n of node.alts) walk(n, inner);
        return;
      }
      case 'quant': {
        const skippable = node.min === 0;
        const repeats = node.max > 1;
        if ((repeats || skippable) && nullable(node.body) && hasCapture(node.body)) {
          // Java runs one more, empty iteration (capturing ""); JavaScript refuses an iteration
          // that matches empty, so `(?<g>a?)?` leaves g undefined where Java captures "".
          out.push({
            code: 'regex.repeated-capture',
            message: 'a repeated or optional group that can match the empty string captures differently in Java (it records an empty iteration)',
            index: node.at,
          });
        }
        // Skipping the repetition itself is harmless (both keep the last iteration's values);
        // skipping a part of one iteration is not.
        walk(node.body, {
          optional: ctx.optional || skippable,
          inRepeat: ctx.inRepeat || repeats,
          repeatedOptional: ctx.repeatedOptional || (ctx.inRepeat && skippable),
        });
        return;
      }
      case 'group': {
        const negative = node.kind === 'nahead' || node.kind === 'nbehind';
        const inner = negative ? { ...ctx, optional: true } : ctx;
        if (node.kind === 'capture') {
          if (ctx.repeatedOptional) {
            out.push({
              code: 'regex.repeated-capture',
              message: `group ${node.name ?? node.number} inside a repetition may be skipped by one iteration: Java keeps the earlier iteration's value, JavaScript clears it`,
              index: node.at,
            });
          }
          open.add(node.number!);
          walk(node.body, inner);
          open.delete(node.number!);
          closed.set(node.number!, ctx.optional || negative);
          return;
        }
        walk(node.body, inner);
        return;
      }
      case 'backref':
        backref(node, out, { closed, open, groupCount });
        return;
      default:
        return;
    }
  };
  walk(root, { optional: false, repeatedOptional: false, inRepeat: false });
  return out;
}

function backref(
  node: Node & { type: 'backref' },
  out: Unfaithful[],
  state: { closed: Map<number, boolean>; open: Set<number>; groupCount: number },
): void {
  const push = (message: string) => out.push({ code: 'regex.backreference', message: message.replace(`\\${node.group}`, written), index: node.at });
  // Said as written: a \k<name> reported as \1 sent readers looking for a \1 that is not there.
  const written = node.name !== undefined ? `\\k<${node.name}>` : `\\${node.group}`;
  if (node.ci) {
    push(`back reference \\${node.group} under case-insensitive matching: Java compares ASCII case only; put it inside (?-i:...) if case must match`);
  } else if (state.open.has(node.group)) {
    push(`back reference \\${node.group} inside its own group: Java fails it, JavaScript matches the empty string`);
  } else if (state.closed.get(node.group) === true) {
    push(`back reference \\${node.group} to a group that may not participate: Java fails it, JavaScript matches the empty string`);
  } else if (!state.closed.has(node.group) && node.group <= state.groupCount) {
    push(`back reference \\${node.group} before its group: Java fails it, JavaScript matches the empty string`);
  }
  // A reference to a group that exists nowhere never matches in either: faithful.
}

/**
 * Inside an atomic group or a possessive quantifier only the first match of the body counts, and
 * Java and JavaScript can find different first matches when a quantifier may repeat a body whose
 * first match is empty although a longer one exists: Java accepts the empty iteration and stops
 * there, JavaScript refuses it and backtracks into the body for the longer one. `(?:\s*|é)?+` fails on "é" in Java (the body's first
 * match is "", which the possessive keeps) and matches in JavaScript. Outside such a context both
 * explore the same matches, only in another order.
 */
function emptyIterationsInAtomic(node: Node, atomic: boolean, out: Unfaithful[]): void {
  switch (node.type) {
    case 'seq': for (const n of node.items) emptyIterationsInAtomic(n, atomic, out); return;
    case 'alt': for (const n of node.alts) emptyIterationsInAtomic(n, atomic, out); return;
    case 'group': emptyIterationsInAtomic(node.body, atomic || node.kind === 'atomic', out); return;
    case 'quant': {
      // A possessive quantifier's own iterations are emitted atomic (java-emit.ts), so each keeps
      // its body's first match as Java does; what repeats inside its body is in an atomic context.
      if (node.mode === 'possessive') {
        emptyIterationsInAtomic(node.body, true, out);
        return;
      }
      if (atomic && node.max > node.min && nullable(node.body) && prefersEmpty(node.body)) {
        out.push({
          code: 'regex.atomic-empty-iteration',
          message: 'a repetition of something that can match the empty string inside an atomic group or possessive quantifier: Java keeps an empty iteration that JavaScript refuses, so the two can keep different matches',
          index: node.at,
        });
        return;
      }
      emptyIterationsInAtomic(node.body, atomic, out);
      return;
    }
    default: return;
  }
}

/**
 * Can the node's first match be empty while a longer match exists? Greedy choices try the longer
 * path first, so the all-empty path comes last and is only taken when nothing longer matches; a
 * lazy quantifier, or an alternation with a branch that can match empty before one that consumes,
 * puts an empty path first.
 */
function prefersEmpty(node: Node): boolean {
  switch (node.type) {
    case 'seq': return node.items.some(prefersEmpty);
    case 'alt': return node.alts.some(prefersEmpty) || node.alts.some((a, i) => nullable(a) && node.alts.slice(i + 1).some(consumes));
    // An atomic group keeps its body's first match: no longer one to prefer it to.
    case 'group': return (node.kind === 'capture' || node.kind === 'noncapture') && prefersEmpty(node.body);
    case 'quant': return (node.mode === 'lazy' && node.max > node.min && consumes(node.body)) || prefersEmpty(node.body);
    default: return false;
  }
}

/** Can the node match something non-empty? (A back reference: assumed so.) */
function consumes(node: Node): boolean {
  switch (node.type) {
    case 'set': case 'linebreak': case 'backref': return true;
    case 'seq': return node.items.some(consumes);
    case 'alt': return node.alts.some(consumes);
    case 'group': return (node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic') && consumes(node.body);
    case 'quant': return node.max > 0 && consumes(node.body);
    default: return false;
  }
}
