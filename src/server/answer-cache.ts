// Large GET answers, kept as the bytes sent, so one organization listing tens of thousands of
// resources again and again does not block every other organization for the query and the
// serialisation each time (docs/benchmarks.md, tenant fairness).
//
// Correctness rests on the version: any committed change to the database, by this server
// (SQLite's total_changes() on its connection) or by another process on the same file (PRAGMA
// data_version), makes every kept answer stale. An answer is only ever served for the same
// organization and the same path and query that produced it.

import type { Db } from './db.js';

export interface AnswerCacheOptions {
  /** Answers smaller than this are cheap to make again and are not kept. */
  minBytes?: number;
  /** Most bytes kept in all; the least recently used go first. */
  maxBytes?: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, { version: string; bytes: Buffer }>();
  private bytes = 0;
  private readonly minBytes: number;
  private readonly maxBytes: number;
  /** The database's version now: read it before making an answer, and give it to set(). */
  readonly version: () => string;

  constructor(db: Db, o: AnswerCacheOptions = {}) {
    this.minBytes = o.minBytes ?? 64 * 1024;
    this.maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
    const changes = db.prepare('SELECT total_changes() AS n');
    const external = db.prepare('PRAGMA data_version');
    this.version = () => `${(changes.get() as { n: number }).n}:${(external.get() as { data_version: number }).data_version}`;
  }

  /** The kept answer for `key`, if nothing was written since it was made. */
  get(key: string): Buffer | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.version !== this.version()) {
      this.bytes -= e.bytes.length;
      return undefined;
    }
    this.entries.set(key, e);
    return e.bytes;
  }

  /**
   * Keeps `bytes` as the answer for `key`, made at `version` (read before the answer's query:
   * a change committed meanwhile by another process then only makes the entry look stale).
   */
  set(key: string, bytes: Buffer, version: string): void {
    if (bytes.length < this.minBytes || bytes.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { version, bytes });
    this.bytes += bytes.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes.length;
    }
  }
}
