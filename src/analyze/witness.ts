// Candidate witnesses for "both parsers match this message", most readable first: the action's
// own fixture messages, then the shortest messages of the intersection automaton spelled with the
// parsers' own literal characters, with spaces put back between words ("insufficient balance",
// not "insufficientbalance"). Candidates are only candidates: engine.ts decides.
import { getIntersectionWordSets, type CharSet, type NFA } from 'refa';
import { NODE_BUDGET, textOf, wordOf } from '../classify/automaton.js';

/** Word sets of the intersection to spell out (the shortest ones come first). */
const WORD_SETS = 6;

const FALLBACK: [number, number][] = [
  [0x20, 0x20], [0x61, 0x7a], [0x30, 0x39], [0x41, 0x5a], [0x21, 0x7e], [0xc0, 0xff], [0xa0, 0xbf], [0x09, 0x0d],
];

export interface WitnessInput {
  automata: readonly NFA[];
  /** Code points the patterns write literally, in pattern order. */
  literals: readonly number[];
  /** Fixture messages of the action on the same channel (and sender). */
  fixtures: readonly string[];
}

export function witnessCandidates(input: WitnessInput): string[] {
  const [a, b] = input.automata;
  const acceptsAll = (text: string) => input.automata.every((n) => n.test(wordOf(text)));
  const out = input.fixtures.filter(acceptsAll);
  if (!a) return out;
  const prefs = preferences(input.literals);
  const literalText = String.fromCodePoint(...input.literals).toLowerCase();
  let n = 0;
  const sets = b ? getIntersectionWordSets(a, b, NODE_BUDGET) : a.wordSets();
  for (const ws of sets) {
    const raw = textOf(ws.map((set) => pick(set, prefs)));
    const literal = String.fromCodePoint(...input.literals);
    out.push(recased(spaced(raw, literalText, acceptsAll), literal, acceptsAll), raw);
    if (++n >= WORD_SETS) break;
  }
  return [...new Set(out)];
}

/** The parsers' letters in lower case (readable whatever case they were written in), then a space. */
function preferences(literals: readonly number[]): number[] {
  const out: number[] = [];
  for (const c of literals) out.push(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
  out.push(0x20);
  return [...new Set(out)];
}

function pick(set: CharSet, prefs: readonly number[]): number {
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

const isAlnum = (c: string) => /^[\p{L}\p{Nd}]$/u.test(c);

/** Puts a space between two letters that no pattern writes side by side, where both still accept. */
function spaced(raw: string, literalText: string, accepts: (t: string) => boolean): string {
  const cps = [...raw];
  for (let i = cps.length - 1; i > 0; i--) {
    const pair = `${cps[i - 1]}${cps[i]}`;
    if (!isAlnum(cps[i - 1]!) || !isAlnum(cps[i]!) || literalText.includes(pair.toLowerCase())) continue;
    const tried = [...cps.slice(0, i), ' ', ...cps.slice(i)];
    if (accepts(tried.join(''))) cps.splice(i, 0, ' ');
  }
  return cps.join('');
}

/** Each word spelled the way the patterns write it ("Your ... KES", not "your ... kes"). */
function recased(text: string, literal: string, accepts: (t: string) => boolean): string {
  const lower = literal.toLowerCase();
  const out = text.replace(/[A-Za-z]+/g, (word) => {
    const at = lower.indexOf(word.toLowerCase());
    return at < 0 || lower.length !== literal.length ? word : literal.slice(at, at + word.length);
  });
  return accepts(out) ? out : text;
}
