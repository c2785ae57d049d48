// Heuristics for catastrophic backtracking in Java's backtracking matcher. They look at the
// shape of the pattern only, so they can be wrong both ways; each finding says why it was made.
// Possessive quantifiers and atomic groups never backtrack, so they are never flagged.
import * as cs from './charset.js';
import type { CharSet } from './charset.js';
import type { Node } from './java-ast.js';

export interface Finding { code: string; message: string; index: number }

type Quant = Node & { type: 'quant' };

/** Can the node match the empty string? */
export function nullable(node: Node): boolean {
  switch (node.type) {
    case 'empty': case 'assert': return true;
    case 'set': case 'linebreak': return false;
    case 'backref': return true;
    case 'seq': return node.items.every(nullable);
    case 'alt': return node.alts.some(nullable);
    case 'group': return node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic' ? nullable(node.body) : true;
    case 'quant': return node.min === 0 || nullable(node.body);
  }
}

/** The characters the node's match can start with. */
export function first(node: Node): CharSet {
  switch (node.type) {
    case 'empty': case 'assert': case 'backref': return cs.EMPTY;
    case 'set': return node.set;
    case 'linebreak': return cs.VSPACE;
    case 'alt': return cs.union(...node.alts.map(first));
    case 'group': return node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic' ? first(node.body) : cs.EMPTY;
    case 'quant': return first(node.body);
    case 'seq': {
      const out: CharSet[] = [];
      for (const item of node.items) {
        out.push(first(item));
        if (!nullable(item)) break;
      }
      return cs.union(...out);
    }
  }
}

const backtracks = (q: Quant) => q.mode !== 'possessive' && q.max === Infinity;

/**
 * Unbounded, backtracking quantifiers that can end the node's match, appended to `out` (one
 * array for the whole walk: copying lists per level made deep nesting cubic).
 */
function trailing(node: Node, out: Quant[] = []): Quant[] {
  switch (node.type) {
    case 'alt': for (const a of node.alts) trailing(a, out); return out;
    case 'group': return node.kind === 'capture' || node.kind === 'noncapture' ? trailing(node.body, out) : out;
    case 'quant':
      if (backtracks(node)) out.push(node);
      return node.mode === 'possessive' ? out : trailing(node.body, out);
    case 'seq':
      for (let i = node.items.length - 1; i >= 0; i--) {
        trailing(node.items[i]!, out);
        if (!nullable(node.items[i]!)) break;
      }
      return out;
    default: return out;
  }
}

/** The set repeated by an unbounded quantifier over one character class, looking through groups. */
function repeatedSet(node: Node): { set: CharSet; q: Quant } | null {
  if (node.type === 'group' && (node.kind === 'capture' || node.kind === 'noncapture')) return repeatedSet(node.body);
  if (node.type === 'quant' && backtracks(node) && node.body.type === 'set') return { set: node.body.set, q: node };
  return null;
}

/**
 * When a polynomial shape is worth a warning: its estimated steps on the channel's longest
 * message exceed the budget. Exponential shapes are always worth one.
 */
export interface LintPolicy {
  channel: 'ussd' | 'sms';
  messageLength: number;
  stepBudget: number;
}

// USSD: 182 characters, the GSM USSD maximum (3GPP TS 23.038 packing of 160 octets). SMS: 1,530
// characters, ten concatenated GSM-7 parts of 153, the longest reply a gateway realistically
// assembles. Budget: 10 million backtracking steps, a few hundred milliseconds of java.util.regex
// on a low-end Android phone; below it a reply that almost matches costs nothing anyone notices.
export const POLICIES: Record<'ussd' | 'sms', LintPolicy> = {
  ussd: { channel: 'ussd', messageLength: 182, stepBudget: 1e7 },
  sms: { channel: 'sms', messageLength: 1530, stepBudget: 1e7 },
};

export function findBacktracking(root: Node, pattern: string, policy: LintPolicy = POLICIES.sms): Finding[] {
  const out: Finding[] = [];
  const text = (n: Node) => describe(n, pattern);
  const visit = (node: Node): void => {
    if (node.type === 'quant' && node.mode !== 'possessive' && node.max > 1) {
      for (const inner of trailing(node.body)) {
        if (cs.overlaps(first(inner.body), first(node.body))) {
          out.push({
            code: 'regex.backtracking',
            index: node.at,
            message: `nested repetition: ${text(inner)} inside a repeated group can split the same text across iterations in exponentially many ways, so a message that almost matches can hang the matcher; repeat only one level, or make the inner one possessive (e.g. ${text(inner)}+)`,
          });
          break;
        }
      }
      const body = node.body.type === 'group' ? node.body.body : node.body;
      if (body.type === 'alt' && overlappingBranches(body)) {
        out.push({
          code: 'regex.backtracking',
          index: node.at,
          message: 'repeated alternation whose branches can match the same characters (e.g. (\\d|\\w)+): every character can be taken by either branch, so backtracking is exponential; merge the branches into one class such as [\\w]+',
        });
      }
    }
    if (node.type === 'seq') adjacent(node.items, out, { text, policy });
    forEachChild(node, visit);
  };
  visit(root);
  return out;
}

function overlappingBranches(alt: Node & { type: 'alt' }): boolean {
  const firsts = alt.alts.map(first);
  for (let i = 0; i < firsts.length; i++) {
    for (let j = i + 1; j < firsts.length; j++) if (cs.overlaps(firsts[i]!, firsts[j]!)) return true;
  }
  return false;
}

/**
 * Adjacent unbounded repetitions of overlapping characters with nothing required between them
 * (`\d+\d+`, `.*[\s]*.*`): on a reply that almost matches, Java tries every way to split the
 * text between them. With d of them in a chain, a reply of L characters has about L^(d-1)/(d-1)!
 * splits, each tried over up to L characters: about L^d/(d-1)! steps. Warned only when that
 * exceeds the budget at the channel's longest message (docs/regex.md, "Lint policy").
 */
function adjacent(items: Node[], out: Finding[], o: { text: (n: Node) => string; policy: LintPolicy }): void {
  // Most sequences are literals and classes: find the repetitions first, allocate nothing else.
  let reps: ({ set: CharSet; q: Quant } | null)[] | null = null;
  let count = 0;
  for (let i = 0; i < items.length; i++) {
    const r = repeatedSet(items[i]!);
    if (!r) continue;
    reps ??= new Array<{ set: CharSet; q: Quant } | null>(items.length).fill(null);
    reps[i] = r;
    count++;
  }
  if (!reps || count < 2) return;
  // Longest chain ending at each repetition; `prev` links it back.
  const length = new Array<number>(items.length).fill(0);
  const prev = new Array<number>(items.length).fill(-1);
  let end = -1;
  for (let i = 0; i < items.length; i++) {
    const b = reps[i];
    if (!b) continue;
    length[i] = 1;
    for (let j = i - 1; j >= 0; j--) {
      const a = reps[j];
      if (a && length[j]! + 1 > length[i]! && cs.overlaps(a.set, b.set)) { length[i] = length[j]! + 1; prev[i] = j; }
      if (!nullable(items[j]!)) break;
    }
    if (end < 0 || length[i]! > length[end]!) end = i;
  }
  const degree = length[end]!;
  if (degree < 2) return;
  const steps = polynomialSteps(o.policy.messageLength, degree);
  if (steps <= o.policy.stepBudget) return;
  const worst: Quant[] = [];
  for (let i = end; i >= 0; i = prev[i]!) worst.unshift(reps[i]!.q);
  const names = worst.map((q) => o.text(q));
  out.push({
    code: 'regex.backtracking',
    index: worst[degree - 1]!.at,
    message: `${names.join(', ')} are unbounded repetitions of overlapping characters with nothing required between them: on a ${o.policy.messageLength}-character ${o.policy.channel} reply that almost matches, Java tries about ${steps.toExponential(1)} ways to split it (polynomial backtracking of degree ${degree}); make them exclusive, or possessive (e.g. ${names[0]}+)`,
  });
}

/** About L^d/(d-1)! backtracking steps for a chain of d adjacent repetitions on L characters. */
export function polynomialSteps(length: number, degree: number): number {
  let splits = 1;
  for (let k = 1; k < degree; k++) splits = (splits * (length + k)) / k;
  return splits * length;
}

function forEachChild(node: Node, f: (child: Node) => void): void {
  switch (node.type) {
    case 'seq': for (const n of node.items) f(n); return;
    case 'alt': for (const n of node.alts) f(n); return;
    case 'group': case 'quant': f(node.body); return;
    default: return;
  }
}

/** The pattern text of a quantifier node, for messages (from its body's start to the quantifier). */
function describe(node: Node, pattern: string): string {
  if (node.type !== 'quant') return pattern.slice(node.at, node.at + 10);
  const start = startOf(node.body);
  let end = pattern[node.at] === '{' ? pattern.indexOf('}', node.at) + 1 : node.at + 1;
  if (pattern[end] === '?' || pattern[end] === '+') end++;
  const s = pattern.slice(start, end);
  return s.length > 30 ? `${s.slice(0, 27)}...` : s;
}

function startOf(node: Node): number {
  return node.type === 'quant' ? startOf(node.body) : node.at;
}
