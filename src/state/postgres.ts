// The record in PostgreSQL (`--state postgres://USER@HOST:PORT/DB`, URL in ./postgres-url.ts).
//
// Tables (PREFIX defaults to `menuctl`), created on first use:
//   PREFIX_state          one row per document (key 'default'): body, version (bigint, +1 per write)
//   PREFIX_state_history  append-only: every version written, when, why, and its body
//   PREFIX_locks          one row per held scope: who holds it (info jsonb), so a refusal names them
//
// A lock is a session-level advisory lock (a 64-bit hash of table and scope) held on a connection
// of its own for the lock's whole life, plus its PREFIX_locks row. The advisory lock is the truth:
// PostgreSQL releases it when the holder's session ends however it ends (process killed, host
// gone: TCP keepalives end the session), so a crashed run never blocks the next one forever. The
// row only says who; a row whose advisory lock is free is a leftover of a dead holder, replaced by
// the next lock() (which tells onStale) or removed by unlock(). Behind a transaction-pooling
// pgbouncer session advisory locks do not work: connect to PostgreSQL or a session-mode pool.

import { createHash } from 'node:crypto';
import pg from 'pg';
import { LockHeld, LockHolderAlive, LockLost, StateConflict, describeHolder, type LockInfo, type LockOptions, type Snapshot, type StateBackend } from './backend.js';
import { PostgresStateError, connectError, parsePostgresUrl, type PostgresTarget } from './postgres-url.js';

const DOCUMENT = 'default';
const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 30_000;
const POLL_MS = [100, 200, 400, 800, 1000];

export { LockHolderAlive } from './backend.js';

/** The refusal of unlock when the lock's holder is still connected: PostgreSQL keeps its lock. */
function holderAlive(holder: LockInfo, where: string, pid: number | null): LockHolderAlive {
  return new LockHolderAlive(holder, where, `${where}: lock ${holder.id} on ${holder.scope} is held by a run that is still connected: ${describeHolder(holder)}. `
    + 'It is released when that run ends; if the run is really gone, end its database session'
    + `${pid === null ? '' : ` (SELECT pg_terminate_backend(${pid}))`} and PostgreSQL releases the lock`);
}

interface Held {
  info: LockInfo;
  key: bigint;
  client: pg.Client;
}

/** The signed 64-bit advisory lock key of a scope in these tables. */
export function advisoryKey(namespace: string, scope: string): bigint {
  return createHash('sha256').update(`menuctl lock\0${namespace}\0${scope}`).digest().readBigInt64BE(0);
}

/** pg_locks shows a bigint advisory key as classid (high 32 bits) and objid (low 32 bits). */
const lockParts = (key: bigint): [string, string] => [String((key >> 32n) & 0xffffffffn), String(key & 0xffffffffn)];

export function openPostgresBackend(url: string, options: { env: NodeJS.ProcessEnv }): StateBackend {
  return new PostgresBackend(parsePostgresUrl(url, options.env));
}

class PostgresBackend implements StateBackend {
  readonly shown: string;
  private readonly pool: pg.Pool;
  private readonly t: { state: string; history: string; locks: string; schema: string | null; namespace: string };
  private readonly held = new Map<string, Held>();
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly target: PostgresTarget) {
    this.shown = target.shown;
    const q = (name: string) => (target.schema ? `${pg.escapeIdentifier(target.schema)}.` : '') + pg.escapeIdentifier(`${target.prefix}_${name}`);
    this.t = { state: q('state'), history: q('state_history'), locks: q('locks'), schema: target.schema, namespace: `${target.schema ?? ''}.${target.prefix}` };
    this.pool = new pg.Pool({ ...this.clientConfig(), max: 2, idleTimeoutMillis: 5_000 });
    // An idle connection that breaks is only dropped; the next query reports what went wrong.
    this.pool.on('error', () => {});
  }

  private clientConfig(): pg.ClientConfig {
    const { password } = this.target;
    return {
      ...this.target.connection,
      // A function, so pg never falls back to process.env.PGPASSWORD or ~/.pgpass behind our env.
      password: () => {
        if (password === undefined) throw Object.assign(new Error('no password'), { code: 'NOPASSWORD' });
        return password;
      },
      application_name: 'menuctl',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      lock_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
      keepAlive: true,
    };
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    if (this.closed) throw new PostgresStateError(`${this.shown}: the state backend is closed`);
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw this.failure(err);
    }
  }

  private failure(err: unknown): Error {
    if (err instanceof PostgresStateError || err instanceof StateConflict || err instanceof LockHeld) return err;
    return connectError(err, this.target);
  }

  /**
   * Creates the tables once. Two runners may both find them missing: the DDL runs under a
   * transaction-scoped advisory lock, so the second waits and then finds them made (CREATE ... IF
   * NOT EXISTS alone can still fail on the catalog's unique index when both create at once).
   */
  private ensureTables(): Promise<void> {
    this.ready ??= this.createTables().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async createTables(): Promise<void> {
    const { t } = this;
    const exists = await this.query<{ n: string }>('SELECT count(to_regclass(x))::text AS n FROM unnest($1::text[]) AS x', [[t.state, t.history, t.locks]]);
    if (exists.rows[0]?.n === '3') return;
    const client = await this.connect(this.pool);
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [String(advisoryKey(t.namespace, 'create tables'))]);
      if (t.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(t.schema)}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${t.state} (
        key text PRIMARY KEY, body text NOT NULL, version bigint NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(), message text NOT NULL)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${t.history} (
        seq bigserial PRIMARY KEY, key text NOT NULL, version bigint NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(), message text NOT NULL, body text NOT NULL,
        written_by text NOT NULL DEFAULT current_user)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${t.locks} (
        scope text PRIMARY KEY, id text NOT NULL UNIQUE, info jsonb NOT NULL,
        taken_at timestamptz NOT NULL DEFAULT now())`);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw this.failure(err);
    } finally {
      client.release();
    }
  }

  private async connect(pool: pg.Pool): Promise<pg.PoolClient> {
    if (this.closed) throw new PostgresStateError(`${this.shown}: the state backend is closed`);
    try {
      return await pool.connect();
    } catch (err) {
      throw this.failure(err);
    }
  }

  async read(): Promise<Snapshot> {
    await this.ensureTables();
    const r = await this.query<{ body: string; version: string }>(`SELECT body, version::text AS version FROM ${this.t.state} WHERE key = $1`, [DOCUMENT]);
    const row = r.rows[0];
    return row ? { text: row.body, version: row.version } : { text: null, version: null };
  }

  async write(text: string, expected: string | null, message: string): Promise<string> {
    await this.ensureTables();
    const { t } = this;
    if (expected !== null && !/^\d{1,18}$/.test(expected)) throw new StateConflict(this.shown);
    // One statement each: the compare-and-swap and its history row commit together or not at all.
    const change = expected === null
      ? `INSERT INTO ${t.state} (key, body, version, message) VALUES ($1, $2, 1, $3) ON CONFLICT (key) DO NOTHING RETURNING version, body, message`
      : `UPDATE ${t.state} SET body = $2, version = version + 1, written_at = now(), message = $3 WHERE key = $1 AND version = $4::bigint RETURNING version, body, message`;
    const r = await this.query<{ version: string }>(
      `WITH w AS (${change}) INSERT INTO ${t.history} (key, version, message, body) SELECT $1, version, message, body FROM w RETURNING version::text AS version`,
      expected === null ? [DOCUMENT, text, message] : [DOCUMENT, text, message, expected],
    );
    const row = r.rows[0];
    if (!row) throw new StateConflict(this.shown);
    return row.version;
  }

  async lock(info: LockInfo, options: LockOptions): Promise<void> {
    await this.ensureTables();
    const key = advisoryKey(this.t.namespace, info.scope);
    const client = new pg.Client(this.clientConfig());
    // Losing this connection loses the lock; the error surfaces on the next use (unlock, close).
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (err) {
      throw this.failure(err);
    }
    try {
      // The server probes a dead peer within about a minute, so a vanished host's lock does not
      // linger for the operating system's two hours; and a server-wide idle_session_timeout
      // (PostgreSQL 14+) must not end the session, and with it the lock, while a run works.
      await client.query('SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3').catch(() => {});
      await client.query('SET idle_session_timeout = 0').catch(() => {});
      const deadline = Date.now() + Math.max(0, options.timeoutMs);
      let unrecorded = 0;
      for (let attempt = 0; ; attempt++) {
        if (this.closed) throw new PostgresStateError(`${this.shown}: the state backend is closed`);
        const got = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [String(key)]);
        if (got.rows[0]?.got) {
          const stale = await this.claimRow(client, info);
          this.held.set(info.id, { info, key, client });
          if (stale) options.onStale?.(stale);
          return;
        }
        const recorded = await this.holderOf(client, info.scope);
        // No row: a holder between its advisory lock and its row, or one releasing right now.
        // Either settles in a moment; try again before naming nobody.
        if (recorded === null && unrecorded++ < 5) {
          attempt--;
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const holder = recorded ?? unknownHolder(info.scope);
        if (attempt === 0 && options.timeoutMs > 0) options.onWait?.(holder);
        // The last try is at the deadline, so the whole wait is given.
        const left = deadline - Date.now();
        if (left <= 0) throw new LockHeld(holder, this.shown);
        await new Promise((r) => setTimeout(r, Math.min(left, POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!)));
      }
    } catch (err) {
      await client.end().catch(() => {});
      throw this.failure(err);
    }
  }

  /** Writes our row while holding the advisory lock; returns the dead holder a leftover row named. */
  private async claimRow(client: pg.Client, info: LockInfo): Promise<LockInfo | null> {
    const { t } = this;
    const r = await client.query<{ info: LockInfo }>(
      // Every part of one statement sees the same snapshot: `old` is the row before the upsert.
      `WITH old AS (SELECT info FROM ${t.locks} WHERE scope = $1),
            mine AS (INSERT INTO ${t.locks} (scope, id, info) VALUES ($1, $2, $3)
                     ON CONFLICT (scope) DO UPDATE SET id = EXCLUDED.id, info = EXCLUDED.info, taken_at = now())
       SELECT info FROM old`,
      [info.scope, info.id, JSON.stringify(info)],
    );
    const old = r.rows[0]?.info;
    return old && old.id !== info.id ? old : null;
  }

  private async holderOf(client: pg.Client | pg.Pool, scope: string): Promise<LockInfo | null> {
    const r = await client.query<{ info: LockInfo }>(`SELECT info FROM ${this.t.locks} WHERE scope = $1`, [scope]);
    return r.rows[0]?.info ?? null;
  }

  async unlock(id: string, _options?: { force?: boolean }): Promise<LockInfo | null> {
    const mine = this.held.get(id);
    if (mine) {
      this.held.delete(id);
      try {
        await mine.client.query(`DELETE FROM ${this.t.locks} WHERE scope = $1 AND id = $2`, [mine.info.scope, id]);
        await mine.client.query('SELECT pg_advisory_unlock($1)', [String(mine.key)]);
        await mine.client.end();
        return mine.info;
      } catch {
        // Our connection broke, so PostgreSQL released the advisory lock already: remove the row
        // the way any leftover is removed.
        await mine.client.end().catch(() => {});
      }
    }
    await this.ensureTables();
    const r = await this.query<{ info: LockInfo }>(`SELECT info FROM ${this.t.locks} WHERE id = $1`, [id]);
    const info = r.rows[0]?.info;
    if (!info) return null;
    const key = advisoryKey(this.t.namespace, info.scope);
    // Taking the advisory lock for a moment proves its holder gone (and keeps a new taker out
    // while the row goes); released on the same session, or the session is dropped.
    const client = await this.connect(this.pool);
    let broken = false;
    try {
      const got = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [String(key)]);
      if (!got.rows[0]?.got) throw holderAlive(info, this.shown, await this.holderPid(client, key));
      try {
        await client.query(`DELETE FROM ${this.t.locks} WHERE id = $1`, [id]);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [String(key)]);
      }
      return info;
    } catch (err) {
      broken = !(err instanceof LockHolderAlive);
      throw this.failure(err);
    } finally {
      client.release(broken);
    }
  }

  private async holderPid(client: pg.PoolClient, key: bigint): Promise<number | null> {
    const [classid, objid] = lockParts(key);
    const r = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      [classid, objid],
    ).catch(() => ({ rows: [] as { pid: number }[] }));
    return r.rows[0]?.pid ?? null;
  }

  async verify(lock: LockInfo): Promise<void> {
    const mine = this.held.get(lock.id);
    if (!mine) throw new LockLost(lock, this.shown, 'it was released');
    const r = await mine.client.query<{ id: string }>(`SELECT id FROM ${this.t.locks} WHERE scope = $1`, [lock.scope]).catch((err: unknown) => {
      throw new LockLost(lock, this.shown, `its database session ended (${(err as Error).message})`);
    });
    if (r.rows[0]?.id !== lock.id) throw new LockLost(lock, this.shown, 'another run took it');
  }

  async locks(): Promise<LockInfo[]> {
    await this.ensureTables();
    const r = await this.query<{ info: LockInfo }>(`SELECT info FROM ${this.t.locks} ORDER BY scope`);
    return r.rows.map((row) => row.info);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const id of [...this.held.keys()]) await this.unlock(id).catch(() => {});
    this.closed = true;
    await Promise.all([...this.held.values()].map((h) => h.client.end().catch(() => {})));
    this.held.clear();
    await this.pool.end();
  }
}

/** The advisory lock is taken but its row not yet written (a moment's gap): say so. */
function unknownHolder(scope: string): LockInfo {
  return { id: '(not yet recorded)', scope, who: 'another run', host: '?', command: '?', started: '?' };
}
