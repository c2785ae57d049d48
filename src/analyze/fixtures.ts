// Fixture findings: a fixture that expects one parser but is also matched by another with a
// different outcome (fixture-overlap), and parsers no fixture expects (uncovered).
import { appliesTo } from '../classify/classify.js';
import type { DesiredAction, Fixture } from '../model/types.js';
import type { Engine } from './engine.js';
import { KeptFinding } from './finding.js';
import { differentOutcome, type Subject } from './subjects.js';

const expectedCategory = (f: Fixture) => (f.expect === 'none' ? undefined : f.expect.category);

export function messageOf(f: Fixture) {
  return { text: f.message, channel: f.channel, sender: f.sender };
}

export async function fixtureOverlaps(action: DesiredAction, subjects: readonly Subject[], engine: Engine): Promise<KeptFinding[]> {
  const out: KeptFinding[] = [];
  for (const fixture of action.tests) {
    const category = expectedCategory(fixture);
    const expected = subjects.find((s) => s.parser.category === category);
    if (!expected) continue;
    const others = subjects.filter((s) => s !== expected && appliesTo(s.parser, messageOf(fixture)) && differentOutcome(s.parser, expected.parser));
    if (others.length === 0) continue;
    const matched = await engine.matches(fixture.message, others.map((s) => s.parser.regex));
    others.forEach((s, i) => {
      if (matched?.[i] !== true) return;
      out.push(new KeptFinding('fixture-overlap', expected, s, fixture.message, fixture.loc));
    });
  }
  return out;
}

export function uncovered(action: DesiredAction, subjects: readonly Subject[], skip: ReadonlySet<Subject>): KeptFinding[] {
  const expected = new Set(action.tests.map(expectedCategory));
  return subjects.filter((s) => !expected.has(s.parser.category) && !skip.has(s)).map((s) => new KeptFinding('uncovered', s, null, null, s.parser.loc));
}
