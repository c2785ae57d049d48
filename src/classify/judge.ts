// Whether a fixture holds, given how its message was classified. Pure.
// The first matching parser in config order wins. If a parser that could not be evaluated comes
// before the winner (or nothing matched), the outcome depends on it: the fixture is an error,
// never a guess.
import type { Fixture } from '../model/types.js';
import type { Classification, ParserMatch, Unevaluable } from './classify.js';

export type FixtureStatus = 'passed' | 'failed' | 'error';

export interface FieldDiff {
  field: string;
  expected: string;
  actual: string;
}

export interface Verdict {
  status: FixtureStatus;
  winner: ParserMatch | null;
  matches: ParserMatch[];
  unevaluable: Unevaluable[];
  /** Expected vs actual, field by field, for failures. */
  diff: FieldDiff[];
  /** Why the fixture is an error (cannot evaluate faithfully, timed out). */
  reasons: string[];
  warnings: string[];
}

const NONE = '(no parser matches)';
const quote = (s: string) => JSON.stringify(s);

/** `fixture` is anything with an expectation: a parser fixture or a session (src/sessions). */
export function judge(fixture: Pick<Fixture, 'expect'>, c: Classification, options: { strict: boolean }): Verdict {
  const winner = c.matches[0] ?? null;
  const blocking = c.unevaluable.filter((u) => winner === null || u.index < winner.index);
  const base = { winner, matches: c.matches, unevaluable: c.unevaluable, diff: [] as FieldDiff[], warnings: [] as string[] };
  if (blocking.length > 0) {
    return {
      ...base,
      status: 'error',
      reasons: blocking.map((u) => `cannot evaluate faithfully: parser ${quote(u.category)}: ${u.reason}`),
    };
  }
  let severalFail = false;
  if (c.matches.length > 1) {
    const names = c.matches.map((m) => quote(m.category)).join(', ');
    base.warnings.push(`${c.matches.length} parsers match: ${names}; the first in config order (${quote(winner!.category)}) wins`);
    severalFail = options.strict;
  }
  const diff = compare(fixture, winner);
  const status: FixtureStatus = diff.length > 0 || severalFail ? 'failed' : 'passed';
  const reasons = severalFail ? ['several parsers match (--strict)'] : [];
  return { ...base, status, diff, reasons };
}

function compare(fixture: Pick<Fixture, 'expect'>, winner: ParserMatch | null): FieldDiff[] {
  const expect = fixture.expect;
  if (expect === 'none') {
    return winner ? [{ field: 'parser', expected: NONE, actual: quote(winner.category) }] : [];
  }
  if (!winner) {
    const expected = expect.category !== undefined ? quote(expect.category) : 'a matching parser';
    return [{ field: 'parser', expected, actual: NONE }];
  }
  const diff: FieldDiff[] = [];
  if (expect.category !== undefined && expect.category !== winner.category) {
    diff.push({ field: 'category', expected: quote(expect.category), actual: quote(winner.category) });
  }
  if (expect.status !== undefined && expect.status !== winner.status) {
    diff.push({ field: 'status', expected: expect.status, actual: winner.status });
  }
  for (const [name, value] of Object.entries(expect.variables ?? {})) {
    const actual = winner.variables[name];
    if (actual !== value) {
      diff.push({ field: `variables.${name}`, expected: quote(value), actual: actual === undefined ? '(not captured)' : quote(actual) });
    }
  }
  return diff;
}
