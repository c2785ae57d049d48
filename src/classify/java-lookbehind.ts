// Java requires a look-behind to have "an obvious maximum length": Pattern.group0 runs study() over
// the body and refuses it when TreeInfo.maxValid ends false. That study is reproduced here step by
// step, with Java's int arithmetic (it wraps) and its node choices, because its rules are narrower
// than they look:
// - a repeated group that Java builds as a Loop (body with an alternation, `?` or a range
//   repetition, e.g. `(?:a|b){2}`) and a back reference clear maxValid;
// - a bounded, lazy or possessive repetition (a Curly) multiplies the body's maximum by its count
//   (Integer.MAX_VALUE for `*`) and clears maxValid when the sum wraps below what came before it:
//   `(?<=a*?)` is valid, `(?<=xa*?)` is not;
// - a greedy `*`/`+`/`{n,}` over one character (CharPropertyGreedy) adds Integer.MAX_VALUE without any
//   check: `(?<=xa*)` is accepted with a wrapped length, and Java then answers wrongly
//   (`(?<=xa*)y` does not match "xaay"), so we report it as unfaithful;
// - an alternation studies what follows it from zero, so overflow checks after it restart.
import { hasCapture, type Node } from './java-ast.js';

const MAX_REPS = 0x7fffffff;

interface Info { min: number; max: number; maxValid: boolean; deterministic: boolean; wrapped: boolean }

type Rest = (info: Info) => void;

const fresh = (): Info => ({ min: 0, max: 0, maxValid: true, deterministic: true, wrapped: false });
const add = (a: number, b: number) => (a + b) | 0;
/** a + b for a maximum, as Java's int does it; notes when the true sum does not fit. */
function addMax(info: Info, a: number, b: number): number {
  const sum = a + b;
  if (sum > 0x7fffffff || sum < -0x80000000) info.wrapped = true;
  return sum | 0;
}
const isQues = (q: Node & { type: 'quant' }) => q.min === 0 && q.max === 1;
const cmax = (q: Node & { type: 'quant' }) => (q.max === Infinity ? MAX_REPS : q.max);

/** Java's TreeInfo.deterministic for a group body (GroupCurly when true, Loop when false). */
function deterministicBody(body: Node): boolean {
  const info = fresh();
  study(body, info, () => {});
  return info.deterministic;
}

function study(node: Node, info: Info, rest: Rest): void {
  switch (node.type) {
    case 'empty': case 'assert': return rest(info);
    case 'set': info.min = add(info.min, 1); info.max = addMax(info, info.max, 1); return rest(info);
    case 'linebreak': info.min = add(info.min, 1); info.max = addMax(info, info.max, 2); return rest(info);
    case 'backref': info.maxValid = false; return rest(info);
    case 'seq': return studySeq(node.items, 0, info, rest);
    case 'alt': return branch(node.alts, info, rest);
    case 'group':
      // Look-arounds keep Node.study: their body is not measured.
      if (node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic') return study(node.body, info, rest);
      return rest(info);
    case 'quant': return quant(node, info, rest);
  }
}

function studySeq(items: Node[], i: number, info: Info, rest: Rest): void {
  if (i === items.length) return rest(info);
  study(items[i]!, info, (next) => studySeq(items, i + 1, next, rest));
}

/** Branch.study: each alternative from zero, then what follows from zero, then the sums. */
function branch(alts: (Node | null)[], info: Info, rest: Rest): void {
  let minL2 = 0x7fffffff;
  let maxL2 = -1;
  let maxV = info.maxValid;
  let wrapped = info.wrapped;
  for (const alt of alts) {
    const a = fresh();
    if (alt) study(alt, a, () => {});
    minL2 = Math.min(minL2, a.min);
    maxL2 = Math.max(maxL2, a.max);
    maxV = maxV && a.maxValid;
    wrapped ||= a.wrapped;
  }
  const minL = add(info.min, minL2);
  const maxL = addMax(info, info.max, maxL2);
  const after = fresh();
  rest(after);
  info.min = add(after.min, minL);
  info.max = addMax(info, after.max, maxL);
  info.maxValid = after.maxValid && maxV;
  info.deterministic = false;
  info.wrapped = wrapped || after.wrapped;
}

function quant(q: Node & { type: 'quant' }, info: Info, rest: Rest): void {
  const body = q.body;
  const plainGroup = body.type === 'group' && (body.kind === 'capture' || body.kind === 'noncapture');
  if (isQues(q)) {
    // `?` over a group is a Branch with an empty alternative; over one node, Ques.study.
    if (plainGroup) return branch([body.body, null], info, rest);
    const min = info.min;
    study(body, info, () => {});
    info.min = min;
    info.deterministic = false;
    return rest(info);
  }
  if (body.type === 'set' && q.max === Infinity && q.mode === 'greedy') {
    // CharPropertyGreedy (`*`, `+`, `{n,}` over one character): adds MAX_REPS, unchecked.
    info.min = add(info.min, q.min);
    if (info.maxValid) info.max = addMax(info, info.max, MAX_REPS);
    info.deterministic = false;
    return rest(info);
  }
  if (plainGroup && q.mode !== 'possessive' && !deterministicBody(body.body)) {
    // Loop.study: no maximum at all.
    info.maxValid = false;
    info.deterministic = false;
    return;
  }
  curly(q, info, rest);
}

/** Curly.study (and GroupCurly's, which is the same). */
function curly(q: Node & { type: 'quant' }, info: Info, rest: Rest): void {
  const { min: minL, max: maxL, maxValid: maxV, deterministic: detm } = info;
  const a = fresh();
  study(q.body, a, () => {});
  let temp = add(Math.imul(a.min, q.min), minL);
  if (temp < minL) temp = 0xfffffff;
  info.min = temp;
  if (maxV && a.maxValid) {
    const product = a.max * cmax(q);
    if (product > 0x7fffffff || product < -0x80000000) info.wrapped = true;
    info.max = addMax(info, maxL, Math.imul(a.max, cmax(q)));
    if (info.max < maxL) info.maxValid = false;
  } else info.maxValid = false;
  info.deterministic = a.deterministic && q.min === q.max ? detm : false;
  info.wrapped ||= a.wrapped;
  rest(info);
}

function hasAtomic(node: Node): boolean {
  switch (node.type) {
    case 'seq': return node.items.some(hasAtomic);
    case 'alt': return node.alts.some(hasAtomic);
    case 'group': return node.kind === 'atomic' || hasAtomic(node.body);
    case 'quant': return node.mode === 'possessive' || hasAtomic(node.body);
    default: return false;
  }
}

export interface LookbehindHost {
  error(description: string, k?: number): never;
  warn(code: string, message: string, k?: number): void;
}

export function checkLookbehind(node: Node & { type: 'group' }, host: LookbehindHost, k: number): void {
  const info = fresh();
  study(node.body, info, () => {});
  if (!info.maxValid) host.error('Look-behind group does not have an obvious maximum length', k);
  if (info.wrapped || info.max < info.min) {
    host.warn('regex.unbounded-lookbehind', 'an unbounded look-behind (e.g. (?<=a*)) is computed with an overflowing length in Java and may not match as written; bound it, e.g. a{0,50}', k);
  }
  if (hasAtomic(node.body)) {
    // Java matches a look-behind's body forward from each start and requires it to end where the
    // look-behind stands, but a possessive or atomic part runs to the end of the input first
    // (`(?<!.*+)` is true everywhere but at the end); JavaScript matches look-behinds backwards.
    host.warn('regex.lookbehind-atomic', 'a possessive quantifier or atomic group inside a look-behind runs past the look-behind in Java; JavaScript cannot reproduce that: use a greedy quantifier there', k);
  }
  if (hasCapture(node.body)) {
    host.warn('regex.lookbehind-capture', 'capturing groups inside a look-behind are filled differently by Java and JavaScript', k);
  }
}
