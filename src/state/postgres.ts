// The record in PostgreSQL (`--state postgres://USER@HOST:PORT/DB`, URL in ./postgres-url.ts).
//
// Tables (PREFIX defaults to `menuctl`), created on first use:
//   PREFIX_state          one row per document (key 'default'): body, version (bigint, +1 per write)
//   PREFIX_state_history  append-only: every version written, when, why, and its body
//   PREFIX_locks          one row per held scope: who holds it (info jsonb), so a refusal names
//                         them, and the server process of the session holding it (backend_pid)
//
// A lock is a transaction-level advisory lock (a 64-bit hash of table and scope) taken in a
// transaction that stays open, on a connection of its own, for the lock's whole life; plus its
// PREFIX_locks row, written beside it. The advisory lock is the truth:
//  - PostgreSQL releases it when the transaction ends however it ends (process killed, host gone:
//    TCP keepalives end the session; an administrator's pg_terminate_backend), so a crashed run
//    never blocks the next one forever, and a row whose advisory lock is free is a leftover.
//  - An open transaction keeps one server session for one client, also behind a pooler in
//    transaction mode (pgbouncer): a session-level lock would stay on a pooled server session that
//    the pooler then hands to the next client, which would "take" the lock again; a transaction
//    lock cannot outlive the transaction, and nothing else runs in that session meanwhile. Before
//    taking it, the session is checked not to hold it already (a session lock left on a pooled
//    session by another tool): such a session is refused, never shared.
//  - Every write of the record carries its lock check in the same statement: the lock's row still
//    names this run and the session recorded in it, and that session still holds the advisory lock
//    (pg_locks). The row is share-locked by that statement, so a run taking the lock over (which
//    must rewrite the row) waits for a write already under way and then reads it.
// Nothing is SET for a session: behind a transaction pool a session setting would stay on a
// server session other clients get. The limits (statement_timeout, lock_timeout) are SET LOCAL in
// menuctl's own transactions; the single statements outside them are bounded on the client side.

import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { LockHeld, LockHolderAlive, LockLost, StateConflict, describeHolder, type LockInfo, type LockOptions, type Snapshot, type StateBackend } from './backend.js';
import {
  CLOSED_BY_SERVER, CONNECT_TIMEOUT, NO_PASSWORD, NO_TLS, PostgresStateError, describeError, parsePostgresUrl, sslOptions, type PostgresTarget, type Stage,
} from './postgres-url.js';
import { holderAlive } from './process.js';

const DOCUMENT = 'default';
const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 30_000;
const POLL_MS = [100, 200, 400, 800, 1000];
/** How long unlock --force waits for PostgreSQL to release a lock whose session it ended. */
const TERMINATE_WAIT_MS = 10_000;

/**
 * Every transaction of ours: READ COMMITTED whatever the server's default (each statement of the
 * lock's long transaction must see the lock rows as they are now), and limits that end with it.
 * The lock's transaction also must not be ended for idling (it idles by design): no
 * idle_in_transaction_session_timeout, no transaction_timeout (PostgreSQL 17+, where it exists),
 * and the server probes a dead peer within about a minute, so a vanished host's lock does not
 * linger for the operating system's two hours.
 */
const BEGIN = `BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}; SET LOCAL lock_timeout = ${STATEMENT_TIMEOUT_MS}`;
const BEGIN_LOCK = `${BEGIN}; SET LOCAL idle_in_transaction_session_timeout = 0;
  SELECT set_config('transaction_timeout', '0', true) WHERE current_setting('transaction_timeout', true) IS NOT NULL;
  SET LOCAL tcp_keepalives_idle = 30; SET LOCAL tcp_keepalives_interval = 10; SET LOCAL tcp_keepalives_count = 3`;

/** The granted advisory lock whose bigint key is `key` (an SQL expression), in this database. */
const advisory = (key: string) => `p.locktype = 'advisory' AND p.objsubid = 1 AND p.granted
  AND p.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND p.classid = ((${key} >> 32) & 4294967295)::oid AND p.objid = (${key} & 4294967295)::oid`;

export { LockHolderAlive } from './backend.js';

/** The signed 64-bit advisory lock key of a scope in these tables. */
export function advisoryKey(namespace: string, scope: string): bigint {
  return createHash('sha256').update(`menuctl lock\0${namespace}\0${scope}`).digest().readBigInt64BE(0);
}

/** pg_locks shows a bigint advisory key as classid (high 32 bits) and objid (low 32 bits). */
const lockParts = (key: bigint): string => `${(key >> 32n) & 0xffffffffn}:${key & 0xffffffffn}`;

export function openPostgresBackend(url: string, options: { env: NodeJS.ProcessEnv }): StateBackend {
  return new PostgresBackend(parsePostgresUrl(url, options.env));
}

/**
 * pg.Client, but a failed connect ends its socket (pg leaves it open: the server then waits its
 * authentication_timeout, a minute, before closing it, and Node cannot exit meanwhile); its own
 * connect timeout; and a code on the driver's errors that have none, so describeError never
 * reads their text.
 */
class Client extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
    const timer = setTimeout(() => {
      this.connection.stream.destroy(Object.assign(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`), { code: CONNECT_TIMEOUT }));
    }, CONNECT_TIMEOUT_MS);
    const settle = (err: Error | null | undefined) => {
      clearTimeout(timer);
      if (!err) return;
      this.connection.stream.destroy();
      const e = err as Error & { code?: string; duringConnect?: boolean };
      // The driver's own wording, the one place it is read: these errors carry no code.
      if (e.code === undefined && e.message === 'The server does not support SSL connections') e.code = NO_TLS;
      if (e.code === undefined && /^Connection terminated/.test(e.message)) e.code = CLOSED_BY_SERVER;
      e.duringConnect = true;
    };
    if (callback) {
      super.connect((err: Error) => {
        settle(err);
        callback(err);
      });
      return;
    }
    return super.connect().then((c) => {
      settle(null);
      return c;
    }, (err: Error) => {
      settle(err);
      throw err;
    });
  }
}

interface Held {
  info: LockInfo;
  key: bigint;
  /** The connection whose open transaction holds the advisory lock. */
  client: pg.Client;
  /** pg_backend_pid() of that session: recorded in the lock's row. */
  pid: number;
}

interface LockRow {
  info: LockInfo;
  backend_pid: number | null;
}

class PostgresBackend implements StateBackend {
  readonly shown: string;
  private pool: pg.Pool;
  private ssl: pg.ClientConfig['ssl'];
  private readonly t: { state: string; history: string; locks: string; schema: string | null; namespace: string };
  private readonly held = new Map<string, Held>();
  /** Every lock this instance took, also once lost: unlock removes their rows without asking. */
  private readonly taken = new Map<string, { info: LockInfo; pid: number }>();
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly target: PostgresTarget) {
    this.shown = target.shown;
    const q = (name: string) => (target.schema ? `${pg.escapeIdentifier(target.schema)}.` : '') + pg.escapeIdentifier(`${target.prefix}_${name}`);
    this.t = { state: q('state'), history: q('state_history'), locks: q('locks'), schema: target.schema, namespace: `${target.schema ?? ''}.${target.prefix}` };
    this.ssl = sslOptions(target.ssl.mode, this.rootCert());
    this.pool = this.newPool();
  }

  private rootCert(): string | null {
    const path = this.target.ssl.rootCert;
    // libpq's `system`: the CAs Node knows, as when none is named.
    if (path === null || path === 'system') return null;
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      throw new PostgresStateError(`${this.shown}: cannot read sslrootcert ${path}: ${(err as Error).message}`);
    }
  }

  private newPool(): pg.Pool {
    const pool = new pg.Pool({ ...this.clientConfig(), Client, max: 2, idleTimeoutMillis: 5_000 });
    // An idle connection that breaks is only dropped; the next query reports what went wrong.
    pool.on('error', () => {});
    return pool;
  }

  private clientConfig(): pg.ClientConfig {
    const { password } = this.target;
    return {
      ...this.target.connection,
      // A function, so pg never falls back to process.env.PGPASSWORD or ~/.pgpass behind our env.
      password: () => {
        if (password === undefined) throw Object.assign(new Error('no password given'), { code: NO_PASSWORD });
        return password;
      },
      ssl: this.ssl,
      // A startup parameter every pooler passes on (pgbouncer tracks it per client); limits such as
      // statement_timeout are not: pgbouncer refuses unknown startup parameters.
      application_name: 'menuctl',
      query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
      keepAlive: true,
    };
  }

  private failure(err: unknown, stage: Stage): Error {
    if (err instanceof PostgresStateError || err instanceof StateConflict || err instanceof LockHeld || err instanceof LockLost) return err;
    const connecting = (err as { duringConnect?: boolean } | null)?.duringConnect === true;
    return describeError(err, { ...this.target, tables: this.t }, connecting ? 'connect' : stage);
  }

  private assertOpen(): void {
    if (this.closed) throw new PostgresStateError(`${this.shown}: the state backend is closed`);
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[], stage: Stage): Promise<pg.QueryResult<R>> {
    this.assertOpen();
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw this.failure(err, stage);
    }
  }

  private async poolClient(): Promise<pg.PoolClient> {
    this.assertOpen();
    try {
      return await this.pool.connect();
    } catch (err) {
      throw this.failure(err, 'connect');
    }
  }

  /** A connection of its own (a lock's), with the TLS the pool settled on. */
  private async newClient(): Promise<pg.Client> {
    this.assertOpen();
    const client = new Client(this.clientConfig());
    // Losing this connection loses the lock; the error surfaces on the next use (verify, unlock).
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (err) {
      throw this.failure(err, 'connect');
    }
  }

  /**
   * sslmode=prefer: the first connection tries TLS; a server without it answers so at once, and
   * from then on every connection is plain (libpq does the same per connection).
   */
  private async settleTls(): Promise<void> {
    if (this.target.ssl.mode !== 'prefer') return;
    try {
      (await this.pool.connect()).release();
    } catch (err) {
      if ((err as { code?: string }).code !== NO_TLS) throw this.failure(err, 'connect');
      const old = this.pool;
      this.ssl = false;
      this.pool = this.newPool();
      await old.end().catch(() => {});
    }
  }

  /**
   * Creates the tables once. Two runners may both find them missing: the DDL runs under a
   * transaction-scoped advisory lock, so the second waits and then finds them made (CREATE ... IF
   * NOT EXISTS alone can still fail on the catalog's unique index when both create at once).
   */
  private ensureTables(): Promise<void> {
    this.ready ??= this.settleTls().then(() => this.createTables()).catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async createTables(): Promise<void> {
    const { t } = this;
    const exists = await this.query<{ n: number; migrated: boolean }>(
      `SELECT count(to_regclass(x))::int AS n,
        EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = 'backend_pid' AND NOT attisdropped) AS migrated
       FROM unnest($1::text[]) AS x`,
      [[t.state, t.history, t.locks], t.locks], 'read');
    if (exists.rows[0]?.n === 3 && exists.rows[0].migrated) return;
    const client = await this.poolClient();
    try {
      await client.query(BEGIN);
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
        taken_at timestamptz NOT NULL DEFAULT now(), backend_pid integer)`);
      // Lock tables made before backend_pid was recorded.
      await client.query(`ALTER TABLE ${t.locks} ADD COLUMN IF NOT EXISTS backend_pid integer`).catch((err: { code?: string }) => {
        if (err.code !== '42501') throw err;
        throw new PostgresStateError(`${this.shown}: ${t.locks} was made by an older menuctl and needs a column its owner adds once: ALTER TABLE ${t.locks} ADD COLUMN backend_pid integer`, err.code);
      });
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw this.failure(err, 'create');
    } finally {
      client.release();
    }
  }

  async read(): Promise<Snapshot> {
    await this.ensureTables();
    const r = await this.query<{ body: string; version: string }>(`SELECT body, version::text AS version FROM ${this.t.state} WHERE key = $1`, [DOCUMENT], 'read');
    const row = r.rows[0];
    return row ? { text: row.body, version: row.version } : { text: null, version: null };
  }

  async write(text: string, expected: string | null, message: string, held: readonly LockInfo[] = []): Promise<string> {
    await this.ensureTables();
    const { t } = this;
    const locks = held.map((lock) => {
      const mine = this.held.get(lock.id);
      if (!mine) throw new LockLost(lock, this.shown, this.taken.has(lock.id) ? 'it was released' : 'this backend did not take it');
      return mine;
    });
    if (expected !== null && !/^\d{1,18}$/.test(expected)) throw new StateConflict(this.shown);
    // Our lock rows that still name the session holding their advisory lock. In the change itself
    // they are share-locked (see the top of this file); the second reading only says which failed.
    const stillHeld = (share: boolean) => `SELECT l.id FROM ${t.locks} l
      JOIN unnest($5::text[], $6::text[], $7::bigint[], $8::int[]) AS k(scope, id, key, pid) ON l.scope = k.scope AND l.id = k.id AND l.backend_pid = k.pid
      WHERE EXISTS (SELECT 1 FROM pg_locks p WHERE ${advisory('k.key')} AND p.pid = k.pid)${share ? ' FOR SHARE OF l' : ''}`;
    const guard = locks.length === 0 ? '' : ` AND (SELECT count(*) FROM (${stillHeld(true)}) AS h) = cardinality($5::text[])`;
    // One statement: the compare-and-swap, its lock check and its history row commit together or not at all.
    const change = expected === null
      ? `INSERT INTO ${t.state} (key, body, version, message) SELECT $1, $2, 1, $3 WHERE $4::bigint IS NULL${guard}
         ON CONFLICT (key) DO NOTHING RETURNING version, body, message`
      : `UPDATE ${t.state} SET body = $2, version = version + 1, written_at = now(), message = $3
         WHERE key = $1 AND version = $4::bigint${guard} RETURNING version, body, message`;
    const r = await this.query<{ version: string | null; held?: string[] }>(
      `WITH w AS (${change}),
            h AS (INSERT INTO ${t.history} (key, version, message, body) SELECT $1, version, message, body FROM w RETURNING version)
       SELECT (SELECT version::text FROM h) AS version${locks.length === 0 ? '' : `, ARRAY(${stillHeld(false)}) AS held`}`,
      [DOCUMENT, text, message, expected, ...(locks.length === 0 ? [] : [
        locks.map((l) => l.info.scope), locks.map((l) => l.info.id), locks.map((l) => String(l.key)), locks.map((l) => l.pid)])],
      'write',
    );
    const row = r.rows[0];
    if (row?.version) return row.version;
    const lost = locks.find((l) => !row?.held?.includes(l.info.id));
    if (lost) {
      await this.verify(lost.info);
      throw new LockLost(lost.info, this.shown, 'its lock row or its session changed while writing');
    }
    throw new StateConflict(this.shown);
  }

  async lock(info: LockInfo, options: LockOptions): Promise<void> {
    await this.ensureTables();
    const key = advisoryKey(this.t.namespace, info.scope);
    const client = await this.newClient();
    try {
      const deadline = Date.now() + Math.max(0, options.timeoutMs);
      let unrecorded = 0;
      let open = false;
      for (let attempt = 0; ; attempt++) {
        this.assertOpen();
        if (!open) await client.query(BEGIN_LOCK);
        open = true;
        const got = await client.query<{ got: boolean | null; pid: number }>(
          // NULL: this session holds the lock already, before we took it (see the top of this file).
          `SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks p WHERE ${advisory('$1::bigint')} AND p.pid = pg_backend_pid())
                  THEN NULL ELSE pg_try_advisory_xact_lock($1::bigint) END AS got, pg_backend_pid() AS pid`,
          [String(key)],
        );
        const { got: taken, pid } = got.rows[0]!;
        if (taken === null) throw this.sharedSession(info.scope);
        // Read after taking it: a holder that released it meanwhile has removed its row.
        const row = await this.rowOf(client, info.scope);
        let holder = row?.info ?? null;
        let why: string | undefined;
        if (taken && row && row.info.id !== info.id && holderAlive(row.info)) {
          // Its session ended (terminated, or its network), but the run itself still works on
          // this host: it stops at its next write. Until then two runs would act at once.
          await client.query('ROLLBACK');
          open = false;
          why = `its database session ended, but its process ${row.info.pid} still runs on this host: that run stops at its next write. Wait for it to end, or end it`;
        } else if (taken) {
          await this.claimRow(info, key, pid);
          this.held.set(info.id, { info, key, client, pid });
          this.taken.set(info.id, { info, pid });
          if (row && row.info.id !== info.id) options.onStale?.(row.info);
          return;
        } else if (holder === null && unrecorded++ < 5) {
          // No row: a holder between its advisory lock and its row, or one releasing right now.
          // Either settles in a moment; try again before naming nobody.
          attempt--;
          await sleep(20);
          continue;
        }
        holder ??= unknownHolder(info.scope);
        // Not held by us: end the transaction while waiting, so a waiting run does not keep a
        // server session of a pool to itself.
        if (open) await client.query('ROLLBACK');
        open = false;
        if (attempt === 0 && options.timeoutMs > 0) options.onWait?.(holder);
        // The last try is at the deadline, so the whole wait is given.
        const left = deadline - Date.now();
        if (left <= 0) throw lockHeld(holder, this.shown, why);
        await sleep(Math.min(left, POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!));
      }
    } catch (err) {
      await client.end().catch(() => {});
      throw this.failure(err, 'write');
    }
  }

  private sharedSession(scope: string): PostgresStateError {
    return new PostgresStateError(`${this.shown}: the database session menuctl was given already holds the lock of ${scope}, before menuctl took it: `
      + 'a pooler in transaction or statement mode hands one server session to many clients, and a session-level lock taken through it (by an older menuctl, or another tool) '
      + 'stays on that shared session. Refusing rather than sharing that lock: connect to PostgreSQL directly or through a session-mode pool (pgbouncer: pool_mode = session)', 'MENUCTL_SHARED_SESSION');
  }

  private async rowOf(client: pg.Client | pg.PoolClient, scope: string): Promise<LockRow | null> {
    const r = await client.query<LockRow>(`SELECT info, backend_pid FROM ${this.t.locks} WHERE scope = $1`, [scope]);
    return r.rows[0] ?? null;
  }

  /** Writes our row, only while the session `pid` holds the advisory lock (the row is visible at once; the lock's transaction stays open). */
  private async claimRow(info: LockInfo, key: bigint, pid: number): Promise<void> {
    const r = await this.query(
      `INSERT INTO ${this.t.locks} (scope, id, info, backend_pid)
       SELECT $1, $2, $3::jsonb, $4::int WHERE EXISTS (SELECT 1 FROM pg_locks p WHERE ${advisory('$5::bigint')} AND p.pid = $4::int)
       ON CONFLICT (scope) DO UPDATE SET id = EXCLUDED.id, info = EXCLUDED.info, backend_pid = EXCLUDED.backend_pid, taken_at = now()
       RETURNING id`,
      [info.scope, info.id, JSON.stringify(info), pid, String(key)], 'write');
    if (r.rowCount !== 1) throw new PostgresStateError(`${this.shown}: the lock of ${info.scope} was lost while it was being taken (its database session ended)`);
  }

  async verify(lock: LockInfo): Promise<void> {
    const mine = this.held.get(lock.id);
    if (!mine) throw new LockLost(lock, this.shown, this.taken.has(lock.id) ? 'it was released' : 'this backend did not take it');
    let now: { pid: number; holds: boolean; row: LockRow | null };
    try {
      const r = await mine.client.query<{ pid: number; holds: boolean; row: LockRow | null }>(
        `SELECT pg_backend_pid() AS pid, EXISTS (SELECT 1 FROM pg_locks p WHERE ${advisory('$2::bigint')} AND p.pid = pg_backend_pid()) AS holds,
          (SELECT json_build_object('info', info, 'backend_pid', backend_pid) FROM ${this.t.locks} WHERE scope = $1) AS row`,
        [lock.scope, String(mine.key)],
      );
      now = r.rows[0]!;
    } catch (err) {
      await this.drop(mine);
      throw new LockLost(lock, this.shown, `its database session ended (${this.failure(err, 'read').message.replace(`${this.shown}: `, '')}), which released it: another run may hold it now`);
    }
    let why: string | null = null;
    if (now.pid !== mine.pid || !now.holds) why = `the database session that took it (server process ${mine.pid}) no longer holds it`;
    else if (now.row?.info.id !== lock.id) why = now.row ? `its row now names ${describeHolder(now.row.info)} (lock id ${now.row.info.id})` : 'its row was removed (`menuctl state unlock`?)';
    if (why === null) return;
    await this.drop(mine);
    throw new LockLost(lock, this.shown, why);
  }

  /** Forgets a lost lock, ending its connection (and with it the transaction, should it still hold the lock). */
  private async drop(mine: Held): Promise<void> {
    this.held.delete(mine.info.id);
    await mine.client.end().catch(() => {});
  }

  async unlock(id: string, options: { force?: boolean } = {}): Promise<LockInfo | null> {
    const mine = this.held.get(id);
    if (mine) {
      this.held.delete(id);
      try {
        // The row goes and the lock is released in the same commit.
        await mine.client.query(`DELETE FROM ${this.t.locks} WHERE scope = $1 AND id = $2`, [mine.info.scope, id]);
        await mine.client.query('COMMIT');
        this.taken.delete(id);
        await mine.client.end();
        return mine.info;
      } catch {
        // Our session ended, so PostgreSQL released the advisory lock already: the row is ours
        // to remove, below.
        await mine.client.end().catch(() => {});
      }
    }
    await this.ensureTables();
    const own = this.taken.get(id);
    if (own) {
      // A lock of ours whose session is gone: only ever our row (this id, our session), whoever
      // holds the scope now, so nothing to ask.
      const r = await this.query<{ info: LockInfo }>(`DELETE FROM ${this.t.locks} WHERE id = $1 AND backend_pid = $2 RETURNING info`, [id, own.pid], 'write');
      this.taken.delete(id);
      return r.rows[0]?.info ?? null;
    }
    const found = await this.query<LockRow>(`SELECT info, backend_pid FROM ${this.t.locks} WHERE id = $1`, [id], 'read');
    const row = found.rows[0];
    if (!row) return null;
    return this.release(id, row, options.force === true);
  }

  /**
   * Removes another run's lock row while holding its advisory lock for a moment, which proves the
   * holder's session gone (and keeps a new taker out while the row goes). A live session is
   * refused, or with `force` ended first.
   */
  private async release(id: string, row: LockRow, force: boolean): Promise<LockInfo> {
    const key = advisoryKey(this.t.namespace, row.info.scope);
    const client = await this.poolClient();
    let clean = false;
    try {
      await client.query(BEGIN);
      if (!(await tryLock(client, key))) {
        const pid = await this.holderPid(client, key);
        if (!force) throw liveSession(row.info, this.shown, pid);
        await this.terminate(client, row, pid);
        const until = Date.now() + TERMINATE_WAIT_MS;
        while (!(await tryLock(client, key))) {
          if (Date.now() > until) throw new PostgresStateError(`${this.shown}: lock ${id} is still held ${TERMINATE_WAIT_MS / 1000} s after its database session was ended; try again`);
          await sleep(100);
        }
      } else if (!force && holderAlive(row.info)) {
        throw new LockHolderAlive(row.info, this.shown, `${this.shown}: lock ${id} on ${row.info.scope} is held by a run whose database session ended but whose process ${row.info.pid} still runs on this host: ${describeHolder(row.info)}. `
          + 'It stops at its next write; wait for it to finish. To release the lock anyway, pass --force');
      }
      await client.query(`DELETE FROM ${this.t.locks} WHERE id = $1`, [id]);
      await client.query('COMMIT');
      clean = true;
      return row.info;
    } catch (err) {
      clean = await client.query('ROLLBACK').then(() => true, () => false);
      throw this.failure(err, 'write');
    } finally {
      client.release(!clean);
    }
  }

  /** unlock --force: ends the session holding the lock, when it is the one the lock's row recorded. */
  private async terminate(client: pg.PoolClient, row: LockRow, pid: number | null): Promise<void> {
    if (pid === null) return;
    // (A row from before backend_pid was recorded names no session: the holder of the key is it.)
    if (row.backend_pid !== null && row.backend_pid !== pid) {
      throw new PostgresStateError(`${this.shown}: the lock of ${row.info.scope} is held by server process ${pid}, not by the session that recorded lock ${row.info.id} (${row.backend_pid}): another run is taking it right now; look again with \`menuctl state list\``);
    }
    try {
      await client.query('SELECT pg_terminate_backend($1)', [pid]);
    } catch (err) {
      if ((err as { code?: string }).code !== '42501') throw err;
      throw new PostgresStateError(`${this.shown}: user ${this.target.connection.user} may not end the session holding lock ${row.info.id} (server process ${pid}): `
        + `an administrator runs SELECT pg_terminate_backend(${pid}), or grants this user pg_signal_backend`, '42501');
    }
  }

  private async holderPid(client: pg.PoolClient, key: bigint): Promise<number | null> {
    const r = await client.query<{ pid: number }>(`SELECT p.pid FROM pg_locks p WHERE ${advisory('$1::bigint')}`, [String(key)]);
    return r.rows[0]?.pid ?? null;
  }

  /**
   * The locks held now: rows whose advisory lock is held by the session they recorded (a row whose
   * holder's session ended is a leftover the next lock() replaces), and rows whose holder still
   * runs on this host, which lock() treats as held too.
   */
  async locks(): Promise<LockInfo[]> {
    await this.ensureTables();
    const r = await this.query<LockRow & { granted: string[] }>(
      `SELECT info, backend_pid, ARRAY(SELECT p.classid::text || ':' || p.objid::text || ':' || p.pid FROM pg_locks p
         WHERE p.locktype = 'advisory' AND p.objsubid = 1 AND p.granted AND p.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS granted
       FROM ${this.t.locks} ORDER BY scope`, [], 'read');
    return r.rows.filter((row) => {
      const lock = lockParts(advisoryKey(this.t.namespace, row.info.scope));
      const live = row.granted.some((g) => (row.backend_pid === null ? g.startsWith(`${lock}:`) : g === `${lock}:${row.backend_pid}`));
      return live || holderAlive(row.info);
    }).map((row) => row.info);
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function tryLock(client: pg.PoolClient, key: bigint): Promise<boolean> {
  const r = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [String(key)]);
  return r.rows[0]?.got === true;
}

/** LockHeld, saying why a holder whose session ended still counts. */
function lockHeld(holder: LockInfo, where: string, why: string | undefined): LockHeld {
  const err = new LockHeld(holder, where);
  if (why) err.message += `: ${why}`;
  return err;
}

/** The refusal of unlock when the lock's holder is still connected: PostgreSQL keeps its lock. */
function liveSession(holder: LockInfo, where: string, pid: number | null): LockHolderAlive {
  return new LockHolderAlive(holder, where, `${where}: lock ${holder.id} on ${holder.scope} is held by a run that is still connected: ${describeHolder(holder)}. `
    + 'It is released when that run ends. If the run is really gone, pass --force to end its database session'
    + `${pid === null ? '' : ` (SELECT pg_terminate_backend(${pid}))`}, which releases the lock; that run, if it still works, stops at its next write`);
}

/** The advisory lock is taken but its row not yet written (a moment's gap): say so. */
function unknownHolder(scope: string): LockInfo {
  return { id: '(not yet recorded)', scope, who: 'another run', host: '?', command: '?', started: '?' };
}
