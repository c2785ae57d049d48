// SQLite storage: WAL, foreign keys, busy timeout, schema versioned with user_version.
// better-sqlite3 is synchronous, so one request's writes run in one transaction with no
// interleaving inside this process; AUTOINCREMENT and UNIQUE guard ids across processes.

import { closeSync, fchmodSync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { loadSqlite } from './sqlite.js';

export type Db = Database.Database;

const SCHEMA_VERSION = 1;

const SCHEMA_V1 = `
CREATE TABLE actions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  public_id TEXT NOT NULL UNIQUE,
  organization_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  root_code TEXT NOT NULL,
  transport_type TEXT NOT NULL,
  operator_ids TEXT NOT NULL,   -- JSON array of world operator ids, in the order given
  steps TEXT NOT NULL,          -- JSON array of full step objects (all fields kept)
  transactions_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  archived_at TEXT
);
CREATE INDEX actions_org ON actions (organization_id, id);

CREATE TABLE parsers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  action_id INTEGER NOT NULL REFERENCES actions (id),
  organization_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  category TEXT NOT NULL,
  target_type TEXT NOT NULL,
  sender TEXT,
  regex TEXT NOT NULL,
  user_message TEXT NOT NULL,
  transactions_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  archived_at TEXT
);
CREATE INDEX parsers_action ON parsers (action_id, id);
-- category is unique among the ACTIVE parsers of one action (docs/api.md, Parsers).
CREATE UNIQUE INDEX parsers_active_category ON parsers (action_id, category) WHERE archived_at IS NULL;

CREATE TABLE apps (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  package_name TEXT NOT NULL,
  icon TEXT NOT NULL,
  token TEXT NOT NULL UNIQUE,
  webhook_url TEXT,
  webhook_secret TEXT,
  is_tester INTEGER NOT NULL DEFAULT 0,
  apk_url TEXT,
  transactions_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  archived_at TEXT
);
CREATE INDEX apps_org ON apps (organization_id, id);

CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/**
 * Indexes that lists read their pages from (docs/api.md, Lists): the organization (or action),
 * whether archived, then the list order, so `?archived=` pages are read from the index alone,
 * without loading the rows they skip. Created on every open when missing, not by a version
 * bump: an index changes no data, so a database stays readable by an older menuctl (which would
 * refuse a higher user_version), and an existing database gains them on its next start.
 */
const LIST_INDEXES = `
CREATE INDEX IF NOT EXISTS actions_org_archived ON actions (organization_id, (archived_at IS NOT NULL), id);
CREATE INDEX IF NOT EXISTS parsers_action_archived ON parsers (action_id, (archived_at IS NOT NULL), id);
CREATE INDEX IF NOT EXISTS apps_org_archived ON apps (organization_id, (archived_at IS NOT NULL), id);
`;

export function openDb(file: string): Db {
  // Before the file is created: without SQLite, nothing is left behind.
  const Sqlite = loadSqlite();
  if (file !== ':memory:') createPrivately(file);
  const db = new Sqlite(file);
  try {
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    // NORMAL under WAL: a commit survives a process crash (the WAL is written before we answer);
    // only an OS crash or power loss can drop the last transactions.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (err) {
    // The caller never receives the handle, so nobody else could close it.
    db.close();
    throw err;
  }
}

/**
 * The database holds app tokens and webhook secrets, so a new one is created readable by its
 * owner only, like the .jwt-secret beside it. SQLite creates the -wal and -shm files with the
 * main file's permissions, so they follow. An existing file is left as its owner set it.
 */
function createPrivately(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600); // an empty file is an empty SQLite database
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  try {
    fchmodSync(fd, 0o600); // the umask may have narrowed it; never wider
  } finally {
    closeSync(fd);
  }
}

function migrate(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(`database schema version ${version} is newer than this menuctl (${SCHEMA_VERSION}); upgrade menuctl`);
  }
  if (version < 1) {
    db.transaction(() => {
      db.exec(SCHEMA_V1);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }).immediate();
  }
  db.exec(LIST_INDEXES);
}

/** Prepared statements, compiled once per SQL text. */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();
  /**
   * Rows materialised by all(): what lists cost. Tests read it (through the server's stats)
   * to see that a page loads only its own rows.
   */
  rowsRead = 0;
  constructor(readonly db: Db) {}

  /** Every row of `sql`, counted in rowsRead. */
  all<R>(sql: string, ...params: unknown[]): R[] {
    const rows = this.get(sql).all(...params) as R[];
    this.rowsRead += rows.length;
    return rows;
  }

  get(sql: string): Database.Statement {
    let st = this.cache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.cache.set(sql, st);
    }
    return st;
  }
}
