// Candidate witnesses for "both parsers match this message", most readable first: the action's
// own fixture messages, then the shortest messages of the intersection automaton spelled with the
// parsers' own literal characters, with spaces put back between words ("insufficient balance",
// not "insufficientbalance"). Candidates are only candidates: engine.ts decides.
import { NFA, type CharSet } from 'refa';
import { NODE_BUDGET, textOf, wordOf } from '../classify/automaton.js';

const FALLBACK: [number, number][] = [
  [0x20, 0x20], [0x61, 0x7a], [0x30, 0x39], [0x41, 0x5a], [0x21, 0x7e], [0xc0, 0xff], [0xa0, 0xbf], [0x09, 0x0d],
];

export interface WitnessParser {
  nfa: NFA;
  /** Code points the pattern writes literally, in pattern order (0 between runs). */
  literals: readonly number[];
}

export interface WitnessInput {
  parsers: readonly WitnessParser[];
  /** Fixture messages of the action on the same channel (and sender). */
  fixtures: readonly string[];
}

export function witnessCandidates(input: WitnessInput): string[] {
  const automata = input.parsers.map((p) => p.nfa);
  const acceptsAll = (text: string) => automata.every((n) => n.test(wordOf(text)));
  const out = input.fixtures.filter(acceptsAll);
  const both = intersection(automata);
  if (!both) return out;
  // One parser's message after the other's ("wrong PIN insufficient funds") reads better than the
  // shortest message of both, which tends to fuse their words ("wrong pinsufficient funds").
  const alone = input.parsers.map(readableWord);
  if (alone.length === 2 && alone[0] !== null && alone[1] !== null) {
    const join = (x: string, y: string) => (/\s$/.test(x) ? `${x}${y}` : `${x} ${y}`);
    for (const joined of [join(alone[0], alone[1]), join(alone[1], alone[0])]) if (acceptsAll(joined)) out.push(joined);
  }
  const literals = input.parsers.flatMap((p) => [...p.literals, 0]);
  for (const readable of [true, false]) {
    const raw = spelled(both, literals, readable);
    if (raw === null) break;
    out.push(polished(raw, literals, acceptsAll), raw);
  }
  return [...new Set(out)];
}

// One per automaton and run: the same parser is compared with each of its action's siblings.
const readableWords = new WeakMap<NFA, string | null>();

/** A short, readable message of one parser's language (null: the language is empty). */
export function readableWord(p: WitnessParser): string | null {
  let w = readableWords.get(p.nfa);
  if (w === undefined) {
    const raw = spelled(p.nfa, p.literals, true);
    w = raw === null ? null : polished(raw, p.literals, (t) => p.nfa.test(wordOf(t)));
    readableWords.set(p.nfa, w);
  }
  return w;
}

/** The cheapest message of the automaton, spelled with the literals' characters where it can. */
function spelled(nfa: NFA, literals: readonly number[], readable: boolean): string | null {
  const prefs = preferences(literals);
  const path = cheapestPath(nfa, (set) => (!readable || prefs.some((c) => set.has(c as never)) ? 1 : 2));
  return path ? textOf(path.map((set) => pick(set, prefs))) : null;
}

function polished(raw: string, literals: readonly number[], accepts: (t: string) => boolean): string {
  const literal = String.fromCodePoint(...literals);
  return recased(spaced(raw, literal.toLowerCase(), accepts), literal, accepts);
}

function intersection(automata: readonly NFA[]): NFA | null {
  const [a, b] = automata;
  if (!a) return null;
  return b ? NFA.fromIntersection(a, b, new NFA.LimitedNodeFactory(NODE_BUDGET)) : a;
}

/**
 * The cheapest path from the initial state to a final one, as the sets read on the way. Costs are
 * 1 or 2 per transition (a bucket queue): 2 for a set without any of the parsers' own characters,
 * so the path prefers to spell the patterns' literals over inventing text.
 */
function cheapestPath(nfa: NFA, cost: (set: CharSet) => 1 | 2): CharSet[] | null {
  type N = NFA.Node;
  const best = new Map<N, number>([[nfa.initial, 0]]);
  const back = new Map<N, { from: N; via: CharSet }>();
  const buckets: N[][] = [[nfa.initial]];
  for (let d = 0; d < buckets.length; d++) {
    for (const node of buckets[d] ?? []) {
      if (best.get(node) !== d) continue;
      if (nfa.finals.has(node)) return spell(node, back);
      for (const [to, via] of node.out) {
        const nd = d + cost(via);
        if (nd < (best.get(to) ?? Infinity)) {
          best.set(to, nd);
          back.set(to, { from: node, via });
          (buckets[nd] ??= []).push(to);
        }
      }
    }
  }
  return null;
}

function spell(end: NFA.Node, back: Map<NFA.Node, { from: NFA.Node; via: CharSet }>): CharSet[] {
  const sets: CharSet[] = [];
  for (let step = back.get(end); step; step = back.get(step.from)) sets.push(step.via);
  return sets.reverse();
}

/** The parsers' letters in lower case (readable whatever case they were written in), then a space. */
function preferences(literals: readonly number[]): number[] {
  const out: number[] = [];
  for (const c of literals) if (c !== 0) out.push(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
  out.push(0x20);
  return [...new Set(out)];
}

function pick(set: CharSet, prefs: readonly number[]): number {
  // An amount or a code ([\d,.]+, [A-Z0-9]{10}) reads best as digits, not as the punctuation or
  // letter that happens to be among the pattern's literals.
  if (set.has(0x30 as never) && set.size < 0x100) return 0x30;
  for (const c of prefs) if (set.has(c as never)) return c;
  for (const [lo, hi] of FALLBACK) {
    const common = set.commonCharacter({ min: lo, max: hi } as never);
    if (common !== undefined) return common;
  }
  for (const r of set.ranges) {
    // Never a lone surrogate or a sentinel in a printed message when anything else will do.
    if (r.min < 0xd800 || r.min > 0xdfff) return r.min;
    if (r.max > 0xdfff) return 0xe000;
  }
  return set.ranges[0]!.min;
}

const isVisible = (c: string) => /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(c);

/** Puts a space between two characters no pattern writes side by side, where it still matches. */
function spaced(raw: string, literalText: string, accepts: (t: string) => boolean): string {
  const cps = [...raw];
  for (let i = cps.length - 1; i > 0; i--) {
    const pair = `${cps[i - 1]}${cps[i]}`;
    if (!isVisible(cps[i - 1]!) || !isVisible(cps[i]!) || literalText.includes(pair.toLowerCase())) continue;
    const tried = [...cps.slice(0, i), ' ', ...cps.slice(i)];
    if (accepts(tried.join(''))) cps.splice(i, 0, ' ');
  }
  return cps.join('');
}

/** Each word spelled the way the patterns write it ("Your ... KES", not "your ... kes"). */
function recased(text: string, literal: string, accepts: (t: string) => boolean): string {
  const words = new Map<string, string>();
  for (const w of literal.match(/[A-Za-z]+/g) ?? []) if (!words.has(w.toLowerCase())) words.set(w.toLowerCase(), w);
  const out = text.replace(/[A-Za-z]+/g, (word) => words.get(word.toLowerCase()) ?? word);
  return accepts(out) ? out : text;
}
