// Where the applied-state record lives (docs/planning.md "State backends"): one small interface,
// one file per backend. A backend stores the record's whole text (every scope, the format of
// src/record/record.ts) with an opaque version for compare-and-swap, and one lock per scope.
// It never parses the record: merging a scope into a newer document is the caller's (see
// src/state/store.ts), so a new backend is only storage and a lock.

/** Who holds a lock: enough for a person to find the run and decide (`menuctl state unlock ID`). */
export interface LockInfo {
  /** Random, unique; what `menuctl state unlock ID` takes. */
  id: string;
  /** The record scope the lock guards (src/record/record.ts scopeKey). */
  scope: string;
  /** The operating-system user (or CI actor). */
  who: string;
  host: string;
  /** e.g. `apply`, `import`, `state rm`. */
  command: string;
  /** ISO 8601, when the lock was taken. */
  started: string;
  /** The CI run, where GITHUB_SERVER_URL/GITHUB_REPOSITORY/GITHUB_RUN_ID are set. */
  run_url?: string;
  pid?: number;
}

/** The stored text and its version; both null when nothing was ever written. */
export interface Snapshot {
  text: string | null;
  version: string | null;
}

/** Thrown by write when the stored version is no longer the one expected: re-read and retry. */
export class StateConflict extends Error {
  constructor(where: string) {
    super(`${where}: the state was written by someone else meanwhile`);
    this.name = 'StateConflict';
  }
}

/** Thrown by lock when another holder has the scope's lock (after waiting up to the timeout). */
export class LockHeld extends Error {
  constructor(readonly holder: LockInfo, where: string) {
    super(`${where}: the state of ${holder.scope} is locked by ${describeHolder(holder)} (lock id ${holder.id})`);
    this.name = 'LockHeld';
  }
}

/**
 * Thrown when a lock this run took is no longer its own: released by someone else, taken over,
 * its PostgreSQL session ended, or the git branch reset under it. The run must stop writing, to
 * the API and to the record: another run may be working on the same scope now.
 */
export class LockLost extends Error {
  constructor(readonly lock: LockInfo, where: string, why: string) {
    super(`${where}: this run no longer holds the state lock of ${lock.scope} (lock id ${lock.id}): ${why}`);
    this.name = 'LockLost';
  }
}

/** Thrown by unlock when the lock's holder still runs (refused unless forced). */
export class LockHolderAlive extends LockHeld {
  constructor(holder: LockInfo, where: string, message: string) {
    super(holder, where);
    this.name = 'LockHolderAlive';
    this.message = message;
  }
}

export function describeHolder(h: LockInfo): string {
  return `${h.who}@${h.host} running \`menuctl ${h.command}\` since ${h.started}${h.run_url ? ` (${h.run_url})` : ''}`;
}

export interface LockOptions {
  /** How long to wait for a held lock before LockHeld (0: try once). */
  timeoutMs: number;
  /** Told once when the first try found the lock held and we wait. */
  onWait?: (holder: LockInfo) => void;
  /**
   * Told when the lock was free but a record of another holder was left behind (that run died
   * without unlocking) and is replaced: the caller says so, as a lock is never taken over silently.
   * Only backends that can prove the holder gone (PostgreSQL: its session ended) call it.
   */
  onStale?: (holder: LockInfo) => void;
}

export interface StateBackend {
  /** How messages name the state: never a password or token. */
  readonly shown: string;
  read(): Promise<Snapshot>;
  /**
   * Stores `text` when the stored version is still `expected` (null: nothing stored yet) and
   * returns the new version; otherwise throws StateConflict. Atomic: a reader sees the old text
   * or the new, never a mix. `message` says why (a git commit message, a log line).
   * `held`: the locks the writer took with this backend; when any of them is no longer its own
   * the write is refused with LockLost, checked as part of the write (not before it), so a run
   * whose lock was taken away never overwrites what the new holder wrote.
   */
  write(text: string, expected: string | null, message: string, held?: readonly LockInfo[]): Promise<string>;
  /**
   * Confirms that `lock` (taken by this instance) is still this run's; throws LockLost when it is
   * not. Called before every write to the API, so it must be cheap (one query, one ls-remote).
   */
  verify(lock: LockInfo): Promise<void>;
  /**
   * Optional: how old (ms, from when it began) a passed verify may be and still answer for a
   * write asked after it. Absent: every write waits for a check begun after it asked. Git sets it:
   * a check there is a process (~15 ms of CPU), and strict checks made a 6,000-write apply 1.8x
   * slower at 20 ms of API latency; PostgreSQL's and the file's checks are cheap enough to be strict.
   */
  readonly verifyWindowMs?: number;
  /** Takes `info.scope`'s lock as `info`; throws LockHeld naming the holder. */
  lock(info: LockInfo, options: LockOptions): Promise<void>;
  /**
   * Releases the lock with this id; returns what it was, or null when no lock has this id.
   * A holder this backend can tell is still running (a live PostgreSQL session; a pid alive on
   * this host) is refused with LockHolderAlive unless `force` (the holder then gets LockLost at
   * its next write).
   */
  unlock(id: string, options?: { force?: boolean }): Promise<LockInfo | null>;
  /** Locks held now (every scope). */
  locks(): Promise<LockInfo[]>;
  /** Ends connections and removes scratch files. */
  close(): Promise<void>;
  /** Optional: fails, before apply's first API write, when the record could not be written (a file's directory). */
  check?(): Promise<void>;
}
