// Carries out a Plan: checks first (archive threshold, secrets destination), then level by
// level (levels.ts), each level's changes concurrently under p-limit. A failed change skips
// its dependents; everything else carries on. An aborted signal stops new changes from
// starting; the ones in flight finish, or fail when the client cancels their requests
// (cli/interrupt.ts: after a grace period).

import pLimit from 'p-limit';
import type { ApiClient } from '../api/types.js';
import { kindOf } from '../model/kinds/index.js';
import type { Change, Plan } from '../plan/types.js';
import { DEFAULT_RECOVERY, type RecoveryPolicy } from './create-once.js';
import { Dependencies, type Ledger } from './dependents.js';
import { toOutcomeError } from './errors.js';
import { executeChange } from './execute.js';
import { groupByLevel } from './levels.js';
import { checkArchiveThreshold, DEFAULT_THRESHOLDS, recordedThresholds, thresholdMessage, type ArchiveThresholds } from '../plan/safety.js';
import { SecretsWriter } from './secrets-file.js';
import { isUnknownOutcome, lostCause } from './errors.js';
import type { ApplyJournal, ApplyResult, ChangeOutcome, OutcomeReason } from './types.js';

export interface ApplyOptions {
  concurrency: number;
  signal?: AbortSignal;
  onStart?(change: Change): void;
  onDone?(outcome: ChangeOutcome): void;
  /** Where created apps' token and webhook_secret go (secrets-file.ts). */
  secretsFile?: string;
  /** The file's section for this environment (secrets-file.ts secretsSection); none without environments. */
  secretsSection?: string;
  /** Create apps without a secrets file, knowingly dropping their token (`--discard-secrets`). */
  discardSecrets?: boolean;
  /** Allow archiving beyond the thresholds (a plan made with --force records it in `safety.force`). */
  force?: boolean;
  /** Over the plan's recorded thresholds (Plan.safety), which are over DEFAULT_THRESHOLDS. */
  thresholds?: Partial<ArchiveThresholds>;
  recovery?: RecoveryPolicy;
  /** Told before each create and after each confirmed or failed change (the applied-state record). */
  journal?: ApplyJournal;
  /** Checks run with the others before the first write (e.g. that the record can be written). */
  preflight?: () => Promise<void>;
  /**
   * Asked before every write to the API (that the run still holds the state lock): a rejection
   * stops the run. That change and every one not yet started are skipped; the ones in flight finish.
   */
  guard?: () => Promise<void>;
}

/** A refusal before anything was written: nothing was changed. */
export class ApplyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApplyRefused';
  }
}

export async function applyPlan(plan: Plan, client: ApiClient, options: ApplyOptions): Promise<ApplyResult> {
  const secrets = await preflight(plan, options);
  // Every action create's in-flight line in one write, before the first request: one write per
  // create would hold each create's slot for a record write (a slow backend, git, then paced apply).
  await options.journal?.beforeAll?.(plan.changes);
  const ledger: Ledger = new Map();
  const deps = new Dependencies(plan.changes);
  const outcomes: (ChangeOutcome | undefined)[] = new Array(plan.changes.length);
  const limit = pLimit(Math.max(1, options.concurrency));
  /** Set when the guard refused: nothing more is sent. */
  let stopped: string | undefined;
  const record = (i: number, outcome: ChangeOutcome) => {
    outcomes[i] = outcome;
    ledger.set(i, outcome);
    options.onDone?.(outcome);
  };

  for (const level of groupByLevel(plan.changes)) {
    await Promise.all(level.map((i) => runOne(plan.changes[i]!, i)));
  }

  /**
   * A slot is held for the API call and the secrets, not for the record's write: each confirmed
   * change still waits for its line to be on disk before it counts as done, but the next calls go
   * on meanwhile and one write takes in every confirmation that came during the last. A slot
   * waiting for a whole-record write per confirmed action made apply quadratic (issue 17).
   */
  async function runOne(change: Change, i: number): Promise<void> {
    const sent = await limit(() => send(change, i));
    if (sent === null) return;
    const { outcome, id, secretsError } = sent;
    try {
      // Secrets first, record second: a record that cannot be written must not cost a token,
      // and a secrets file that cannot be written must not cost the record of the new id.
      if (id !== null) await confirm(options.journal, change, id);
      if (secretsError !== undefined) throw secretsError;
      record(i, outcome);
    } catch (err) {
      record(i, { ...base(change), status: 'failed', id, error: toOutcomeError(err) });
    }
  }

  /** Sends one change; null when its outcome is already recorded (skipped, or failed before the API confirmed it). */
  async function send(change: Change, i: number): Promise<{ outcome: ChangeOutcome; id: string | null; secretsError: unknown } | null> {
    if (options.signal?.aborted) {
      record(i, skipped(change, INTERRUPTED));
      return null;
    }
    if (stopped === undefined && options.guard) {
      try {
        await options.guard();
      } catch (err) {
        stopped ??= (err as Error).message;
      }
    }
    if (stopped !== undefined) {
      record(i, skipped(change, { code: 'stopped', why: stopped }));
      return null;
    }
    const block = deps.check(change, ledger);
    if (block.skip) {
      record(i, skipped(change, block.reason));
      return null;
    }
    options.onStart?.(change);
    let id = change.id;
    const journal = options.journal;
    try {
      if (change.op === 'create') await journal?.beforeCreate(change);
    } catch (err) {
      record(i, { ...base(change), status: 'failed', id, error: toOutcomeError(new Error(`not sent: ${(err as Error).message}`)) });
      return null;
    }
    try {
      const done = await executeChange(change, {
        client,
        policy: options.recovery ?? DEFAULT_RECOVERY,
        parentId: block.parentId,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      id = done.id;
      const outcome: ChangeOutcome = { ...base(change), status: 'applied', id };
      if (done.recovered) outcome.recovered = true;
      let secretsError: unknown;
      if (done.secrets && id !== null) {
        outcome.reason = await keepSecrets(options.discardSecrets === true, change.address, id, done.secrets, secrets).catch((err: unknown) => {
          secretsError = err;
          return undefined;
        });
      } else if (done.secretsLost !== undefined) {
        outcome.reason = { code: 'secrets-lost', cause: done.secretsLost };
      }
      return { outcome, id, secretsError };
    } catch (err) {
      // The API did not confirm it: an app's in-flight mark goes when the create surely failed.
      const unknown = isUnknownOutcome(err);
      await journal?.failed(change, !unknown, unknown ? lostCause(err) : undefined).catch(() => undefined);
      record(i, { ...base(change), status: 'failed', id, error: toOutcomeError(err) });
      return null;
    }
  }

  const list = outcomes.map((o, i) => o ?? skipped(plan.changes[i]!, INTERRUPTED));
  const result: ApplyResult = {
    outcomes: list,
    // Interrupted when the signal left something undone: changes skipped, or in flight and cancelled.
    interrupted: options.signal?.aborted === true && list.some((o) => o.status !== 'applied'),
    summary: {
      applied: list.filter((o) => o.status === 'applied').length,
      failed: list.filter((o) => o.status === 'failed').length,
      skipped: list.filter((o) => o.status === 'skipped').length,
    },
  };
  if (secrets && secrets.written.length > 0) result.secrets = { file: secrets.file, addresses: [...secrets.written] };
  if (stopped !== undefined) result.stopped = stopped;
  return result;
}

/** Why the archive thresholds refuse this plan, or null: the plan's own numbers unless overridden. */
export function archiveRefusal(plan: Plan, options: Pick<ApplyOptions, 'force' | 'thresholds'>): string | null {
  if (options.force === true || plan.safety?.force === true) return null;
  const thresholds = { ...DEFAULT_THRESHOLDS, ...recordedThresholds(plan), ...options.thresholds };
  const check = checkArchiveThreshold(plan.changes, thresholds);
  return check.exceeded ? thresholdMessage(check, thresholds) : null;
}

/** Tells the journal; a failure to record is reported as such (the change itself happened). */
async function confirm(journal: ApplyJournal | undefined, change: Change, id: string): Promise<void> {
  try {
    await journal?.confirmed(change, id);
  } catch (err) {
    throw new Error(`done (id ${id}), but the applied-state record could not be written: ${(err as Error).message}; run apply again once it can be`);
  }
}

/** Everything that can refuse the whole plan, before the first write. */
async function preflight(plan: Plan, options: ApplyOptions): Promise<SecretsWriter | null> {
  const refusal = archiveRefusal(plan, options);
  if (refusal) throw new ApplyRefused(refusal);
  try {
    await options.preflight?.();
  } catch (err) {
    throw new ApplyRefused(`${(err as Error).message}. Nothing was changed.`);
  }
  const withSecrets = plan.changes.filter((c) => c.op === 'create' && kindOf(c.type).hasSecrets);
  if (withSecrets.length === 0) return null;
  // Without a secrets file the record keeps each new app's id (written before anything else
  // after its answer), and GET /api/apps/{id} gives its token and webhook secret any time:
  // `menuctl secrets pull` hands them on (issue 24 item 6).
  if (!options.secretsFile) return null;
  const writer = new SecretsWriter(options.secretsFile, options.secretsSection);
  try {
    await writer.check();
  } catch (err) {
    throw new ApplyRefused(`${(err as Error).message}. Nothing was changed.`);
  }
  return writer;
}

async function keepSecrets(
  discard: boolean,
  address: string,
  id: string,
  secrets: { token: string; webhook_secret: string | null },
  writer: SecretsWriter | null,
): Promise<OutcomeReason> {
  if (!writer) return { code: discard ? 'secrets-discarded' : 'secrets-with-api' };
  try {
    await writer.save(address, { id, ...secrets });
  } catch (err) {
    // The app exists; only its secrets could not be kept. A failure (exit 1), told without the secrets.
    throw new Error(`app created (id ${id}) but its secrets could not be written to ${writer.file}: ${(err as Error).message}`);
  }
  return { code: 'secrets-written', file: writer.file };
}

function base(change: Change): Pick<ChangeOutcome, 'address' | 'op' | 'type'> {
  return { address: change.address, op: change.op, type: change.type };
}

const INTERRUPTED: OutcomeReason = { code: 'interrupted' };

function skipped(change: Change, reason: OutcomeReason): ChangeOutcome {
  return { ...base(change), status: 'skipped', id: change.id, reason };
}
