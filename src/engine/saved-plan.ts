// Is a saved plan still true (docs/apply.md "Saved plans")? Two steps, so the caller can show
// the first one's warnings before the live read of the second: verifySavedPlan (the touched live
// resources still have the plan's fingerprints, and no app create happened since), then, given
// the config, checkSavedPlanAgainstConfig (every change is what the config plans now).

import type { ApiClient } from '../api/types.js';
import { checkAgainstConfig } from '../apply/against-config.js';
import { verifyPlan, type Verification } from '../apply/verify.js';
import type { Warning } from '../model/diagnostic.js';
import { kindOf } from '../model/kinds/index.js';
import type { DesiredState } from '../model/types.js';
import { configDigest } from '../plan/digest.js';
import type { Plan } from '../plan/types.js';
import { recordedScope, scopeOf, type LoadedRecord } from '../state/record-file.js';
import { askedOnce, managedApps, matchedActions, type ApplyInput } from './apply-input.js';
import { readLiveFor } from './read-live.js';

/**
 * A plan made for one environment is never carried out in another (nor one made without
 * environments): the two when they differ (null: no environment), else null.
 */
export function otherEnvironment(plan: Plan, now: string | null): { made: string | null; now: string | null } | null {
  const made = plan.environment ?? null;
  return made === now ? null : { made, now };
}

/** Why a saved plan is refused: verificationMessage (apply/verify.ts) words it. */
export type Stale = Pick<Verification, 'problems' | 'stale'>;

export type Verified =
  | { ok: false; stale: Stale }
  | { ok: true; warnings: Warning[]; appsListed: () => Promise<boolean> };

/**
 * The plan against the live API: every touched resource still has the plan's fingerprint (and,
 * given the config, its digest is the plan's), and no app create was carried out or left in
 * flight since (recordedAppCreates).
 */
export async function verifySavedPlan(
  plan: Plan,
  o: { desired: DesiredState | null; record: LoadedRecord; client: ApiClient; concurrency: number; recreate: readonly string[] },
): Promise<Verified> {
  const verification = await verifyPlan(plan, o.client, {
    ...(o.desired ? { configDigest: configDigest(o.desired) } : {}),
    concurrency: o.concurrency,
  });
  if (!verification.ok) return { ok: false, stale: verification };
  const appsListed = askedOnce(o.client);
  const recorded = await recordedAppCreates(plan, o.record, o.recreate, { client: o.client, appsListed });
  if (recorded.length > 0) return { ok: false, stale: { problems: [], stale: recorded } };
  return { ok: true, warnings: verification.warnings, appsListed };
}

/** The plan against what the config plans now (protection re-checked); with it, what apply carries out. */
export async function checkSavedPlanAgainstConfig(
  plan: Plan, desired: DesiredState,
  o: { record: LoadedRecord; client: ApiClient; concurrency: number; signal?: AbortSignal; recreate: string[] },
): Promise<{ ok: false; stale: Stale } | { ok: true; input: ApplyInput }> {
  const { record } = o;
  const live = await readLiveFor(desired, { client: o.client, concurrency: o.concurrency, ...(o.signal ? { signal: o.signal } : {}), record });
  const check = checkAgainstConfig(plan, desired, live, { recreate: o.recreate, recorded: recordedScope(record) });
  if (!check.ok) {
    const problems = check.errors.map((d) => `${d.address ?? 'the config'}: ${d.message} [${d.code}]`);
    return { ok: false, stale: { problems, stale: check.unplanned } };
  }
  // The same definition either way; the smaller count errs on the side of refusing. The apps
  // answer is kept as a value: a closure over `live` held the whole live state through the apply.
  const listed = live.apps_listed;
  return { ok: true, input: {
    plan, record, apps: managedApps(check.comparison), actions: matchedActions(check.comparison), managed: Math.min(plan.safety?.managed ?? check.managed, check.managed),
    appsListed: async () => listed,
  } };
}

/**
 * App creates of a saved plan that the record says happened since (an id that is live) or are in
 * flight: where the API cannot list apps, verifyPlan cannot see them, and carrying the create out
 * again would make a second app (and replace the first one's token in the secrets file). Where it
 * can, verifyPlan's identity check has looked already, and an in-flight mark says nothing more
 * (as for the planner, plan/in-flight.ts). A recorded id that no longer exists is no reason.
 */
export async function recordedAppCreates(
  plan: Plan, record: LoadedRecord, recreate: readonly string[], api: { client: ApiClient; appsListed: () => Promise<boolean> },
): Promise<{ address: string; why: string }[]> {
  const scope = scopeOf(record);
  if (!scope) return [];
  const entries = plan.changes.flatMap((c) => {
    const kind = kindOf(c.type);
    const entry = c.op === 'create' && kind.mayBeUnlisted ? scope[kind.recordedIn!].get(c.address) : undefined;
    return entry ? [{ address: c.address, type: c.type, entry }] : [];
  });
  if (entries.length === 0) return [];
  const listed = await api.appsListed();
  const out: { address: string; why: string }[] = [];
  for (const { address, type, entry } of entries) {
    if (entry.id !== null) {
      if ((await kindOf(type).api.get(api.client, entry.id)) === null) continue;
      out.push({ address, why: `the applied-state record holds this ${type} as id ${entry.id}, which exists: it was created after this plan was made` });
    } else if (!listed && !recreate.includes(address)) {
      out.push({ address, why: 'the applied-state record has its create in flight: plan again (the plan says how to resolve it), or confirm with --recreate' });
    }
  }
  return out;
}
