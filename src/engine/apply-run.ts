// apply as a sequence (docs/apply.md): what to carry out (a plan made now from the config, or a
// saved plan checked against the live API and the config), the checks before anyone is asked,
// carrying it out with the record kept and the state lock guarded, and completing the secrets
// file after. The caller loads the config, takes the record (and its lock), asks, and shows
// everything: this returns data, throws typed refusals (errors.ts), and never writes to stdout
// or stderr.

import { applyPlan, ApplyRefused, archiveRefusal } from '../apply/apply.js';
import type { Completion } from '../apply/complete-secrets.js';
import { recordJournal } from '../apply/journal.js';
import { secretsSection } from '../apply/secrets-file.js';
import type { ApplyResult, ChangeOutcome } from '../apply/types.js';
import type { ApiClient } from '../api/types.js';
import { canonicalStep } from '../model/canonical.js';
import type { Diagnostic, Warning } from '../model/diagnostic.js';
import { kindOf } from '../model/kinds/index.js';
import type { DesiredState, ResolvedAction } from '../model/types.js';
import type { PlanOptions } from '../plan/build-plan.js';
import type { Change, Plan } from '../plan/types.js';
import { RecordKeeper, type LoadedRecord } from '../state/record-file.js';
import { completeAfterApply, missingOrFail, usable } from './after-apply.js';
import { applyInputOf, type ApplyInput } from './apply-input.js';
import { AppsKnown, EngineRefusal, SavedPlanStale } from './errors.js';
import { appsKnownToSecretsFile } from './known-apps.js';
import { planDesired } from './plan.js';
import type { ReadLiveForOptions } from './read-live.js';
import { checkSavedPlanAgainstConfig, verifySavedPlan } from './saved-plan.js';

/** A plan made now: the config's live state read and planned. With an error diagnostic, `input` is not to be carried out. */
export async function planToApply(
  desired: DesiredState, record: LoadedRecord, options: PlanOptions & Omit<ReadLiveForOptions, 'record'>,
): Promise<{ input: ApplyInput; diagnostics: Diagnostic[] }> {
  const planned = await planDesired(desired, { ...options, record });
  return { input: applyInputOf(planned, record), diagnostics: planned.diagnostics };
}

/**
 * A saved plan, carried out only when every check passes (docs/apply.md "Saved plans"): every
 * touched live resource still has the plan's fingerprint and no app create happened since, and,
 * given the config (`desired`), its digest is the plan's and every change is what the config
 * plans now (protection re-checked). Throws SavedPlanStale. `onWarnings`: the first check's
 * warnings, before the live read of the second.
 */
export async function savedPlanToApply(
  plan: Plan, desired: DesiredState | null,
  o: { record: LoadedRecord; client: ApiClient; concurrency: number; recreate: string[]; signal?: AbortSignal; onWarnings?: (warnings: Warning[]) => void },
): Promise<ApplyInput> {
  const { record } = o;
  const engine = { record, client: o.client, concurrency: o.concurrency, recreate: o.recreate };
  const verified = await verifySavedPlan(plan, { ...engine, desired });
  if (!verified.ok) throw new SavedPlanStale(verified.stale, 'stale');
  o.onWarnings?.(verified.warnings);
  if (!desired) return { plan, record, apps: [], appsListed: verified.appsListed };
  const checked = await checkSavedPlanAgainstConfig(plan, desired, { ...engine, ...(o.signal ? { signal: o.signal } : {}) });
  if (!checked.ok) throw new SavedPlanStale(checked.stale, 'unplanned');
  return checked.input;
}

/** What finds a secret's value in text (cli/secret-mask.ts SecretMask). */
export interface SecretNames {
  readonly empty: boolean;
  /** The names of the secrets whose values `text` holds. */
  namesIn(text: string): string[];
}

export interface ApplyRunOptions {
  client: ApiClient;
  concurrency: number;
  signal: AbortSignal;
  /** The environment selected (its section of the secrets file); null without environments. */
  environment: string | null;
  /** Where app tokens go (absolute); undefined: nowhere (or --discard-secrets). */
  secretsFile?: string | undefined;
  discardSecrets: boolean;
  /** --force: archives beyond the thresholds acknowledged. */
  force: boolean;
  /** Secrets whose values the record must never keep (step details are recorded as sent). */
  secrets?: SecretNames | undefined;
}

/** What the caller does between the steps: ask, show progress, say what was done. */
export interface ApplyRunHooks {
  /** After the checks, before anything is written: whether to carry the plan out. */
  confirm: (plan: Plan) => Promise<boolean>;
  /** Just before the first write: told as each change starts and ends; `finish` once the plan is carried out. */
  carrying?: (plan: Plan) => { onStart?: (change: Change) => void; onDone?: (outcome: ChangeOutcome) => void; finish?: () => void } | undefined;
  /** The plan was carried out, before the secrets file is completed. */
  applied?: (result: ApplyResult) => void;
}

export type ApplyRunResult =
  /** Nothing to carry out; the record and secrets file were completed (null: the file lacked nothing). */
  | { status: 'empty'; completion: Completion | null }
  /** Not confirmed: nothing was written. */
  | { status: 'declined' }
  /** Carried out; `completion` is null when the run was interrupted or stopped (no more writes), or the file lacked nothing. */
  | { status: 'applied'; result: ApplyResult; completion: Completion | null };

/** Checks, asks, carries the plan out and completes the secrets file, in that order. */
export async function applyRun(input: ApplyInput, o: ApplyRunOptions, hooks: ApplyRunHooks): Promise<ApplyRunResult> {
  const { plan } = input;
  const section = secretsSection(o.environment);
  if (plan.changes.length === 0) return { status: 'empty', completion: await complete(input, o, section, true) };
  await checkBeforeConfirm(input, o, section);
  if (!(await hooks.confirm(plan))) return { status: 'declined' };
  await checkSecretsFile(input, o, section);
  const result = await carryOut(input, o, section, hooks);
  hooks.applied?.(result);
  // Interrupted, or the state lock lost (another run may be working on this scope now): no
  // secrets completion, no more writes.
  if (result.interrupted || result.stopped !== undefined) return { status: 'applied', result, completion: null };
  return { status: 'applied', result, completion: await complete(input, o, section, false, result) };
}

/** Before the question: a plan apply would refuse is not worth confirming. */
async function checkBeforeConfirm(input: ApplyInput, o: ApplyRunOptions, section: string | undefined): Promise<void> {
  const { plan } = input;
  const refusal = archiveRefusal(plan, thresholdsFor(input, o));
  if (refusal) throw new EngineRefusal('archive-threshold', refusal);
  const known = await appsKnownToSecretsFile(plan, o.secretsFile, { client: o.client, appsListed: input.appsListed, record: input.record, ...(section ? { section } : {}) });
  if (known.length > 0) throw new AppsKnown(known);
  refuseSecretsInRecord(plan.changes, input.record.shown, o.secrets);
}

/**
 * Tokens the file lacks are completed after the plan: a file that cannot take them is found now.
 * So is one an app update or restore will need: it is read back afterwards (after-apply.ts).
 */
async function checkSecretsFile(input: ApplyInput, o: ApplyRunOptions, section: string | undefined): Promise<void> {
  const { secretsFile } = o;
  if (secretsFile === undefined) return;
  const appsReadBack = input.plan.changes.some((c) => kindOf(c.type).hasSecrets && (c.op === 'update' || c.op === 'restore'));
  if ((await missingOrFail(secretsFile, input.apps, true, section)).length > 0 || appsReadBack) await usable(secretsFile);
}

async function carryOut(input: ApplyInput, o: ApplyRunOptions, section: string | undefined, hooks: ApplyRunHooks): Promise<ApplyResult> {
  const { plan } = input;
  const keeper = new RecordKeeper(input.record);
  const told = hooks.carrying?.(plan);
  try {
    return await applyPlan(plan, o.client, {
      concurrency: o.concurrency,
      signal: o.signal,
      ...(told?.onStart ? { onStart: told.onStart } : {}),
      ...(told?.onDone ? { onDone: told.onDone } : {}),
      journal: recordJournal(keeper),
      preflight: () => keeper.check(),
      // Before every write to the API: a run whose state lock was taken away (unlocked, its
      // session ended, the branch reset) stops instead of working beside the new holder.
      guard: () => input.record.store.verifyLocks(),
      ...(o.secretsFile !== undefined ? { secretsFile: o.secretsFile } : {}),
      ...(section ? { secretsSection: section } : {}),
      discardSecrets: o.discardSecrets,
      ...thresholdsFor(input, o),
    });
  } catch (err) {
    if (err instanceof ApplyRefused) throw new EngineRefusal('apply-refused', err.message);
    throw err;
  } finally {
    told?.finish?.();
  }
}

/** The record learns the ids of the config's apps, the secrets file the tokens it lacks (after-apply.ts). */
function complete(input: ApplyInput, o: ApplyRunOptions, section: string | undefined, check: boolean, result?: ApplyResult): Promise<Completion | null> {
  return completeAfterApply(input, { client: o.client, secretsFile: o.secretsFile, section, check, ...(result ? { result } : {}) });
}

/** The threshold inputs: the plan's recorded thresholds, the count checked now, --force. */
function thresholdsFor(input: ApplyInput, o: ApplyRunOptions): { force: boolean; thresholds?: { managedCount: number } } {
  return {
    force: o.force,
    ...(input.managed !== undefined ? { thresholds: { managedCount: input.managed } } : {}),
  };
}

/**
 * Refuses when what apply would write to the applied-state record (an action's step details,
 * which the API does not show and the record keeps) holds a known secret's value, e.g. a ${VAR}
 * in a step's expect or description whose MENUCTL_VAR_ variable holds a token: the record and its
 * history (git commits, PostgreSQL's history table) would keep it in plain text, and masking it
 * would make the record disagree with what was sent. Refused before anything is sent.
 */
function refuseSecretsInRecord(changes: readonly { address: string; op: string; desired?: unknown }[], shown: string, secrets: SecretNames | undefined): void {
  if (!secrets || secrets.empty) return;
  const problems: string[] = [];
  for (const c of changes) {
    if (c.op === 'archive' || c.desired === undefined) continue;
    const text = recordedSteps(c.desired);
    if (text === null) continue;
    const names = secrets.namesIn(text);
    if (names.length > 0) problems.push(`${c.address}'s steps hold the value of ${names.join(', ')}`);
  }
  if (problems.length === 0) return;
  throw new EngineRefusal('record-secret', `not applied, because the applied-state record ${shown} would keep a secret's value in plain text: ${problems.join('; ')}. ` +
    'The record (and its history) keeps every step\'s expect and description as sent. Take the secret out of the step (a ${VAR} whose MENUCTL_VAR_ variable holds a secret, usually), then plan again. Nothing was changed.');
}

/** What the record keeps of an action's desired form (its steps as sent), as text; null for other kinds. */
function recordedSteps(desired: unknown): string | null {
  const steps = (desired as Partial<ResolvedAction>).steps;
  return Array.isArray(steps) ? JSON.stringify(steps.map(canonicalStep)) : null;
}
