// plan(desired, live, record): the config's live state read and compared, then planned. The
// caller has loaded the config; problems come back as diagnostics (data), for the caller to show.

import type { Diagnostic } from '../model/diagnostic.js';
import type { DesiredState, LiveState } from '../model/types.js';
import { buildPlan, type PlanOptions } from '../plan/build-plan.js';
import { buildDriftResult, type DriftResult } from '../plan/build-drift.js';
import type { Comparison } from '../plan/compare.js';
import type { Plan } from '../plan/types.js';
import { readLiveComparing, type ReadLiveForOptions } from './read-live.js';

export interface Planned {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  /** Which live resource each desired one is (apply completes secrets and the record from it). */
  comparison: Comparison;
  /** The planner's errors and warnings; with an error, `plan` is not to be carried out. */
  diagnostics: Diagnostic[];
}

/** Reads the live state `desired` needs (the record given in `options`) and plans it. */
export async function planDesired(desired: DesiredState, options: PlanOptions & ReadLiveForOptions): Promise<Planned> {
  const { live, comparer, recorded } = await readLiveComparing(desired, options);
  const { plan, diagnostics, comparison } = buildPlan(desired, live, { ...options, recorded }, comparer);
  return { desired, live, plan, comparison, diagnostics };
}

/** Reads the live state `desired` needs and compares it the other way round: what drifted. */
export async function driftOf(desired: DesiredState, options: ReadLiveForOptions & { targets: string[] }): Promise<DriftResult> {
  const { live, comparer, recorded } = await readLiveComparing(desired, options);
  return buildDriftResult(desired, live, { targets: options.targets, recorded }, comparer);
}
