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

export interface Outcome {
  address: string;
  op: ChangeOp;
  type: ResourceType;
  status: OutcomeStatus;
  /** Live id after the change (the new id for creates); null if none. */
  id: string | null;
  error?: OutcomeError;
  /** Why it was skipped, e.g. `action["X"] failed`, `interrupted`. */
  reason?: string;
  /** A create whose first answer was lost, found by its identity instead of created twice. */
  recovered?: boolean;
}

export interface ApplyResult {
  outcomes: Outcome[];
  interrupted: boolean;
  summary: { applied: number; failed: number; skipped: number };
  /** Where created apps' secrets were written, and for which apps (never the secrets). */
  secrets?: { file: string; addresses: string[] };
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

/** The outcome's reason for an app created without a secrets file (report/outcomes-text.ts reads it). */
export const SECRETS_WITH_API = 'its token and webhook secret stay with the API: `menuctl secrets pull --out FILE` reads them by the recorded id';
