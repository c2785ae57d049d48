// The plan file is written in pieces (issue 36 item 9: at 100,000 actions x 5 from empty its
// text is ~0.7 GB, longer than a string can hold, and rendering it whole failed with "Invalid
// string length"). The pieces must be the bytes the one-string rendering gave: the golden file
// was written by that rendering (serializePlan before the change), and generated plans compare
// with stableJson of the same document.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { warning } from '../../src/model/diagnostic.js';
import { planDocument, planJsonChunks, planOfDocument, serializePlan } from '../../src/plan/plan-file.js';
import { evaluateSafety } from '../../src/plan/safety.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { parseJsonChunks } from '../../src/text/json-pieces.js';
import { Elementwise, stableJson } from '../../src/text/stable-json.js';
import { expectGolden } from '../report/golden.js';
import { emptyPlan, samplePlan } from '../report/sample-plan.js';

/** The plan file as one string, the way serializePlan wrote it before it wrote in pieces. */
const atOnce = (plan: Plan): string =>
  stableJson(Object.fromEntries(Object.entries(planDocument(plan)).map(([k, v]) => [k, v instanceof Elementwise ? [...v.items] : v])));

const text = fc.string({ unit: 'binary', maxLength: 20 });
const TEMPLATES = samplePlan().changes;

/** One of the sample's changes, its address, values and desired strings replaced by any text. */
const change: fc.Arbitrary<Change> = fc.record({
  k: fc.nat({ max: TEMPLATES.length - 1 }), name: text, values: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
}).map(({ k, name, values }) => {
  const c = structuredClone(TEMPLATES[k]!);
  c.address = `${c.address}${name}`;
  c.fields = c.fields.map((f, i) => ({ ...f, after: (values[i] ?? f.after) as never }));
  if (c.op !== 'archive') {
    const desired = c.desired as unknown as Record<string, unknown>;
    for (const key of Object.keys(desired)) if (typeof desired[key] === 'string') desired[key] = name;
  }
  return c;
});

const plan: fc.Arbitrary<Plan> = fc.record({
  changes: fc.array(change, { maxLength: 12 }),
  organization_id: fc.option(fc.nat()),
  environment: fc.option(text, { nil: undefined }),
  targets: fc.array(text, { maxLength: 2 }),
  prune: fc.boolean(),
  safety: fc.option(fc.record({ maxArchive: fc.nat(5), force: fc.boolean() }), { nil: undefined }),
  unmanaged: fc.array(fc.record({ type: fc.constantFrom('action' as const, 'app' as const), address: text, id: text }), { maxLength: 3 }),
  warnings: fc.array(fc.record({ code: fc.constantFrom('plan.hidden-steps', 'live.apps-not-listed'), message: text }), { maxLength: 3 }),
}).map((g) => {
  const p: Plan = {
    ...emptyPlan(), changes: g.changes, organization_id: g.organization_id, targets: g.targets, prune: g.prune, unmanaged: g.unmanaged,
    summary: { create: 0, update: 0, archive: 0, restore: 0 },
    warnings: g.warnings.map((w) => warning(w.code, w.message)),
  };
  for (const c of g.changes) p.summary[c.op]++;
  if (g.environment !== undefined) p.environment = g.environment;
  if (g.safety) p.safety = evaluateSafety(g.changes, { maxArchive: g.safety.maxArchive, maxArchivePercent: 25, managedCount: 10 }, { force: g.safety.force });
  return p;
});

describe('planJsonChunks', () => {
  it('writes the bytes serializePlan wrote as one string (golden files written by it)', () => {
    expectGolden('plan.json', [...planJsonChunks(samplePlan())].join(''));
    expectGolden('plan-empty.json', [...planJsonChunks(emptyPlan())].join(''));
  });

  it('is the one-string rendering of any plan, in pieces of whole lines', () => {
    fc.assert(fc.property(plan, (p) => {
      const chunks = [...planJsonChunks(p)];
      expect(chunks.join('')).toBe(atOnce(p));
      for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    }), { numRuns: 300 });
  });

  it('writes a plan of many changes in pieces of ~64 KB, none of which holds much more', () => {
    const p = samplePlan();
    p.changes = Array.from({ length: 20_000 }, (_, i) => ({ ...TEMPLATES[i % TEMPLATES.length]!, address: `${TEMPLATES[i % TEMPLATES.length]!.address}${i}` }) as Change);
    const chunks = [...planJsonChunks(p)];
    expect(chunks.join('')).toBe(atOnce(p));
    expect(chunks.length).toBeGreaterThan(100);
    // The longest change here is ~1 KB: a piece is ~64 KB of whole changes, then the next one.
    for (const c of chunks) expect(c.length).toBeLessThan(65_536 + 2_000);
  });

  it('reads back, in pieces, as the plan it was', async () => {
    const p = samplePlan();
    p.safety = evaluateSafety(p.changes, { maxArchive: 10, maxArchivePercent: 25, managedCount: 20 }, { force: false });
    const read = planOfDocument(await parseJsonChunks(planJsonChunks(p)));
    expect(serializePlan(read)).toBe(serializePlan(p));
  });
});
