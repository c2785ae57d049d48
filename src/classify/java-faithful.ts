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
  const push = (message: string) => out.push({ code: 'regex.backreference', message, index: node.at });
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
