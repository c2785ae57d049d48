// A plan keeps what it shows, not what it was read from: the comparison (every pair) and the live
// state are let go once buildPlan returns, unless the caller keeps them. A getter in buildPlan's own
// body (config_digest's, before) shared the function's closure context, which held both for as
// long as the plan lived: every pair of a big plan through its rendering, and through an apply.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { desired, desiredAction, desiredParser, live, liveAction, liveParser } from './builders.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Plans, keeps only the plan, and says whether the comparison and the live state were collected. */
function planAndDrop(): { plan: unknown; comparison: WeakRef<object>; live: WeakRef<object> } {
  const l = live({ actions: [liveAction()], parsers: [liveParser({ regex: 'changed.*' })] });
  const d = desired({ actions: [desiredAction({ parsers: [desiredParser(), desiredParser({ category: 'new' })] })] });
  const r = buildPlan(d, l, { targets: [] });
  return { plan: r.plan, comparison: new WeakRef(r.comparison), live: new WeakRef(l) };
}

describe('what a plan keeps', () => {
  it('lets the comparison and the live state go once only the plan is kept', async () => {
    const { plan, comparison, live: liveRef } = planAndDrop();
    // WeakRefs are kept alive to the end of the job that made them.
    await new Promise((r) => setTimeout(r, 0));
    gc();
    expect(comparison.deref()).toBeUndefined();
    expect(liveRef.deref()).toBeUndefined();
    // The plan itself still reads whole, its digest included (worked out now, from the config).
    expect(JSON.parse(JSON.stringify(plan))).toMatchObject({ config_digest: expect.stringMatching(/^[0-9a-f]{8,64}$/), summary: { create: 1, update: 1 } });
  });
});
