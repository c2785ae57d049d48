// Fixture findings: a fixture that expects one parser but is also matched by another with a
// different outcome (fixture-overlap), and parsers no fixture expects (uncovered).
import { appliesTo } from '../classify/classify.js';
import type { DesiredAction, Fixture } from '../model/types.js';
import type { Engine } from './engine.js';
import { SEVERITY, type Finding } from './types.js';
import { differentOutcome, type Subject } from './subjects.js';

const quote = (s: string) => JSON.stringify(s);

const expectedCategory = (f: Fixture) => (f.expect === 'none' ? undefined : f.expect.category);

export function messageOf(f: Fixture) {
  return { text: f.message, channel: f.channel, sender: f.sender };
}

export async function fixtureOverlaps(action: DesiredAction, subjects: readonly Subject[], engine: Engine): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const fixture of action.tests) {
    const category = expectedCategory(fixture);
    const expected = subjects.find((s) => s.parser.category === category);
    if (!expected) continue;
    const others = subjects.filter((s) => s !== expected && appliesTo(s.parser, messageOf(fixture)) && differentOutcome(s.parser, expected.parser));
    if (others.length === 0) continue;
    const matched = await engine.matches(fixture.message, others.map((s) => s.parser.regex));
    others.forEach((s, i) => {
      if (matched?.[i] !== true) return;
      out.push({
        kind: 'fixture-overlap', severity: SEVERITY['fixture-overlap'], parsers: [expected.address, s.address],
        witness: fixture.message, location: fixture.loc ?? null,
        message: `this fixture expects ${quote(expected.parser.category)} (${expected.parser.status}) but ${quote(s.parser.category)} (${s.parser.status}) matches ${quote(fixture.message)} too; which one the device picks is not documented: make the patterns exclusive`,
      });
    });
  }
  return out;
}

export function uncovered(action: DesiredAction, subjects: readonly Subject[], skip: ReadonlySet<Subject>): Finding[] {
  const expected = new Set(action.tests.map(expectedCategory));
  return subjects.filter((s) => !expected.has(s.parser.category) && !skip.has(s)).map((s) => ({
    kind: 'uncovered', severity: SEVERITY.uncovered, parsers: [s.address], witness: null, location: s.parser.loc ?? null,
    message: `no fixture expects ${quote(s.parser.category)}: add a message it must match under tests: (expect: { category: ${s.parser.category} })`,
  }));
}
