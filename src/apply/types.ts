// What apply did, change by change. Renderers turn this into text or JSON.
import type { Change, ChangeOp } from '../plan/types.js';
import type { ResourceType } from '../model/types.js';

export type OutcomeStatus = 'applied' | 'failed' | 'skipped';

export interface OutcomeError {
  message: string;
  /** HTTP status, when the API answered */
  status?: number;
  /** the server's error code and detail, when it gave them */
  code?: string;
  detail?: string;
}

/** What applying one change did (not a replay's TransactionOutcome, nor a session's deciding match). */
export interface ChangeOutcome {
  address: string;
  op: ChangeOp;
  type: ResourceType;
  status: OutcomeStatus;
  /** Live id after the change (the new id for creates); null if none. */
  id: string | null;
  error?: OutcomeError;
  /** Why it was skipped, or where a created app's secrets went: a code (report/outcome-reason.ts words it). */
  reason?: OutcomeReason;
  /** A create whose first answer was lost, found by its identity instead of created twice. */
  recovered?: boolean;
}

/**
 * Why an outcome is what it is, as data. apply/ decides it; only report/outcome-reason.ts puts it
 * in words (the JSON's `reason`, the text lines), so nothing compares prose.
 */
export type OutcomeReason =
  /** Skipped: the run's signal came before it started. */
  | { code: 'interrupted' }
  /** Skipped: the run stopped before it (`why`: the state lock was lost, say). */
  | { code: 'stopped'; why: string }
  /** Skipped: a change it waits on (`by`, an address) was not applied. */
  | { code: 'blocked'; by: string; blocker: Blocker }
  /** Skipped: a parser whose action (`by`) has no live id to send it under. */
  | { code: 'no-parent-id'; by: string }
  /** An app created; its token and webhook secret were written to `file`. */
  | { code: 'secrets-written'; file: string }
  /** An app created without a secrets file: its secrets stay with the API (`menuctl secrets pull`). */
  | { code: 'secrets-with-api' }
  /** An app created with `--discard-secrets`. */
  | { code: 'secrets-discarded' }
  /** An app create whose answer was lost, found again, but whose secrets could not be read back (`cause`). */
  | { code: 'secrets-lost'; cause: string };

/** What became of the change a skipped one waited on. */
export type Blocker = { status: 'failed'; op: ChangeOp } | { status: 'skipped'; reason: OutcomeReason | undefined };

export interface ApplyResult {
  outcomes: ChangeOutcome[];
  interrupted: boolean;
  summary: { applied: number; failed: number; skipped: number };
  /** Where created apps' secrets were written, and for which apps (never the secrets). */
  secrets?: { file: string; addresses: string[] };
  /** Why the run stopped early (ApplyOptions.guard refused): every change after it was skipped. */
  stopped?: string;
}

/**
 * Told what apply does, in order, so what the API cannot tell can be recorded (src/record/).
 * A rejected promise fails the change it is about: before a create, nothing is sent.
 */
export interface ApplyJournal {
  /** Once, before the first change is sent: what can be written ahead for all of them together. */
  beforeAll?(changes: readonly Change[]): Promise<void>;
  /** Before a create is sent. */
  beforeCreate(change: Change): Promise<void>;
  /** After the API confirmed the change; `id` is the live id (the new one for creates). */
  confirmed(change: Change, id: string): Promise<void>;
  /** The change failed; `definite`: it certainly had no effect (else its outcome is unknown, and `lost` says how the answer was lost). */
  failed(change: Change, definite: boolean, lost?: string): Promise<void>;
}

