// What the engine refuses before anything is written, as data: `kind` says which problem, the
// message says what to do. The CLI maps each kind to its CliError code (cli/engine-errors.ts).
// A refusal whose words need what only the caller knows (the file name as the user gave it)
// carries its data instead: AppsKnown, SavedPlanStale.

import type { KnownApp } from './known-apps.js';
import type { Stale } from './saved-plan.js';

export type RefusalKind =
  /** The secrets file cannot be read (or is not a secrets file). */
  | 'secrets-file-unreadable'
  /** The secrets file or the record cannot be written. */
  | 'output-unwritable'
  /** The plan archives more than the thresholds allow, and nobody acknowledged it (--force). */
  | 'archive-threshold'
  /** Carrying the plan out was refused before its first write (apply/apply.ts ApplyRefused). */
  | 'apply-refused'
  /** The applied-state record would keep a secret's value in plain text. */
  | 'record-secret';

export class EngineRefusal extends Error {
  constructor(readonly kind: RefusalKind, message: string) {
    super(message);
    this.name = 'EngineRefusal';
  }
}

/** App creates the secrets file says happened already (known-apps.ts): refused before anyone is asked. */
export class AppsKnown extends Error {
  constructor(readonly known: readonly KnownApp[]) {
    super(`the secrets file knows ${known.length} app create(s) of the plan as live apps`);
    this.name = 'AppsKnown';
  }
}

/**
 * A saved plan that is no longer true (saved-plan.ts): `stale`, the live resources that moved
 * (verificationMessage words it); `unplanned`, its changes are not what the config plans now.
 */
export class SavedPlanStale extends Error {
  constructor(readonly stale: Stale, readonly reason: 'stale' | 'unplanned') {
    super(reason === 'stale' ? 'the saved plan is stale' : 'the saved plan is not what the config plans');
    this.name = 'SavedPlanStale';
  }
}
