// The record in its backend: read and parse it, write it back by compare-and-swap, and hold
// the scope's lock for the commands that write (CONTRACT.md "State"). A write that finds the
// stored record changed (another scope's apply wrote meanwhile, on a shared git branch or
// PostgreSQL row) re-reads it, puts this scope's lines into the newer document and tries again:
// each scope is written only by its lock's holder, so the merge loses nothing.

import { hostname, userInfo } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parseRecord, serializeRecord, type RecordDocument } from '../record/record.js';
import { fullJitter } from './poll.js';
import { LockLost, StateConflict, type LockInfo, type LockOptions, type StateBackend } from './backend.js';

/**
 * How long a write keeps re-reading and retrying when other scopes' writers get in first (git
 * and PostgreSQL shared by many organizations): a time, not a count, since a crowd of writers on
 * one branch can refuse a dozen writes in a row (issue 36 item 2); past it something rewrites the
 * record in a loop.
 */
const CONFLICT_WINDOW_MS = 120_000;
/** Full-jitter exponential backoff between those retries, so the writers spread out. */
const backoff = (tries: number): number => fullJitter(tries, 25, 2000);

export class RecordStore {
  private version: string | null = null;
  private readonly held: LockInfo[] = [];
  /** The lock check under way or queued (verifyLocks), and whether it has started asking. */
  private checking: Promise<void> | null = null;
  private checkingStarted = false;
  /** When the last check that passed began (performance.now()), for verifyWindowMs. */
  private lastPassStarted: number | null = null;
  /** Set once a check found a lock lost. */
  private lost: LockLost | null = null;

  constructor(readonly backend: StateBackend) {}

  get shown(): string {
    return this.backend.shown;
  }

  /** The stored document (empty when nothing was written yet). */
  async load(): Promise<RecordDocument> {
    const { text, version } = await this.backend.read();
    this.version = version;
    return text === null ? new Map() : parseRecord(text, this.shown);
  }

  /**
   * Writes `doc`. On a conflict the newer document takes this scope's lines from `doc` (and
   * `doc` takes the newer one's other scopes, so later writes carry them too).
   */
  async save(doc: RecordDocument, key: string, message: string): Promise<void> {
    const deadline = Date.now() + CONFLICT_WINDOW_MS;
    for (let tries = 0; ; tries++) {
      try {
        this.version = await this.backend.write(serializeRecord(doc), this.version, message, this.held);
        return;
      } catch (err) {
        if (!(err instanceof StateConflict) || Date.now() >= deadline) throw err;
      }
      if (tries > 0) await new Promise((resume) => setTimeout(resume, backoff(tries)));
      const newer = await this.load();
      for (const [scope, record] of newer) if (scope !== key) doc.set(scope, record);
      for (const scope of [...doc.keys()]) if (scope !== key && !newer.has(scope)) doc.delete(scope);
    }
  }

  /**
   * Throws LockLost when a lock this store took is no longer its own: called before every write
   * to the API. Callers that ask while a check is under way share it; one asked after waits for
   * a fresh one (an answer older than the question proves nothing).
   */
  verifyLocks(): Promise<void> {
    if (this.held.length === 0) return Promise.resolve();
    // A lock once lost is lost for good: every later caller gets the same answer at once.
    if (this.lost !== null) return Promise.reject(this.lost);
    // A backend whose check is costly (git: a process per check) may take an answer that began
    // at most verifyWindowMs ago; the others ask afresh each time.
    const window = this.backend.verifyWindowMs ?? 0;
    if (window > 0 && this.lastPassStarted !== null && performance.now() - this.lastPassStarted <= window) return Promise.resolve();
    if (this.checking === null || this.checkingStarted) {
      const next = (this.checking ?? Promise.resolve()).catch(() => undefined).then(async () => {
        this.checkingStarted = true;
        const started = performance.now();
        try {
          await Promise.all(this.held.map((info) => this.backend.verify(info)));
        } catch (err) {
          // No earlier pass may answer for a caller now.
          this.lastPassStarted = null;
          if (err instanceof LockLost) this.lost = err;
          throw err;
        }
        this.lastPassStarted = started;
      });
      this.checkingStarted = false;
      const mine = next.finally(() => {
        if (this.checking === mine) this.checking = null;
      });
      this.checking = mine;
    }
    return this.checking;
  }


  /** Fails before the first write to the API when the record could not be written there. */
  async check(): Promise<void> {
    await this.backend.check?.();
  }

  /** Takes `scope`'s lock for `command`; LockHeld names the holder. */
  async lock(scope: string, command: string, o: { env: NodeJS.ProcessEnv; timeoutMs: number } & Pick<LockOptions, 'onWait' | 'onStale'>): Promise<LockInfo> {
    const info = lockInfo(scope, command, o.env);
    await this.backend.lock(info, { timeoutMs: o.timeoutMs, ...(o.onWait ? { onWait: o.onWait } : {}), ...(o.onStale ? { onStale: o.onStale } : {}) });
    this.held.push(info);
    return info;
  }

  /** Releases the locks this store took (if any) and ends the backend's connections. */
  async close(): Promise<void> {
    try {
      for (const info of this.held.splice(0).reverse()) await this.backend.unlock(info.id);
    } finally {
      await this.backend.close();
    }
  }
}

/** Who is taking a lock: the CI actor and run where there is one. */
export function lockInfo(scope: string, command: string, env: NodeJS.ProcessEnv): LockInfo {
  const run = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
    ? `${env.GITHUB_SERVER_URL.replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
    : undefined;
  return {
    id: randomUUID(),
    scope,
    who: env.GITHUB_ACTOR || osUser(env),
    host: hostname(),
    command,
    started: new Date().toISOString(),
    ...(run ? { run_url: run } : {}),
    pid: process.pid,
  };
}

function osUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER || env.USERNAME || 'unknown';
  }
}
