// A plan keeps what it shows, not what it was read from: the comparison (every pair), the live
// state and the live actions are let go once buildPlan returns, unless the caller keeps them. A
// getter in buildPlan's own body (config_digest's, before) shared the function's closure context,
// which held the comparison and the live state for as long as the plan lived; a create's pair
// that kept its action's pair held that action's live object. What apply carries out keeps the
// plan and what it derived, not the comparison.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { applyInputOf } from '../../src/engine/apply-input.js';
import type { LoadedRecord } from '../../src/state/record-file.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { desired, desiredAction, desiredParser, live, liveAction, liveParser } from './builders.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects after the job that made the WeakRefs (they are kept alive to its end). */
async function collect(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
  gc();
}

/** A live action with a parser that changes, and a parser to create under it. */
function planned() {
  const action = liveAction();
  const l = live({ actions: [action], parsers: [liveParser({ regex: 'changed.*' })] });
  const d = desired({ actions: [desiredAction({ parsers: [desiredParser(), desiredParser({ category: 'new' })] })] });
  return { d, l, action, result: buildPlan(d, l, { targets: [] }) };
}

describe('what a plan keeps', () => {
  it('lets the comparison, the live state and its actions go once only the plan is kept', async () => {
    const { plan, refs } = (() => {
      const { l, action, result } = planned();
      return { plan: result.plan, refs: [new WeakRef(result.comparison), new WeakRef(l), new WeakRef(action)] };
    })();
    await collect();
    expect(refs.map((r) => r.deref())).toEqual([undefined, undefined, undefined]);
    // The plan still reads whole: its creates and its digest (worked out now, from the config).
    expect(JSON.parse(JSON.stringify(plan))).toMatchObject({
      config_digest: expect.stringMatching(/^[0-9a-f]{8,64}$/),
      summary: { create: 1, update: 1 },
      changes: expect.arrayContaining([expect.objectContaining({ op: 'create', action_id: 'a1', desired: expect.objectContaining({ category: 'new' }) })]),
    });
  });

  it('what apply carries out of a plan made now lets the comparison and the live state go', async () => {
    const { input, refs } = (() => {
      const { l, result } = planned();
      return { input: applyInputOf({ ...result, live: l }, {} as LoadedRecord), refs: [new WeakRef(result.comparison), new WeakRef(l)] };
    })();
    await collect();
    expect(refs.map((r) => r.deref())).toEqual([undefined, undefined]);
    expect(await input.appsListed()).toBe(true);
    expect(input.plan.changes).toHaveLength(2);
  });
});
