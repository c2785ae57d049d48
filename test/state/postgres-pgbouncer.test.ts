// The PostgreSQL state backend behind a real pgbouncer (test/helpers/pgbouncer.mjs) in each pool
// mode, with its stock settings. A transaction pool hands one server session to many clients in
// turn: a lock must still never be shared or taken over, and what cannot work must say so.
// pgbouncer is installed or fetched with apt-get download; where neither works these tests are
// skipped, except in CI (CI set), where that fails.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { LockHeld, LockLost, type LockInfo, type StateBackend } from '../../src/state/backend.js';
import { advisoryKey, openPostgresBackend } from '../../src/state/postgres.js';
import { describeError } from '../../src/state/postgres-url.js';
import { locatePgbouncer, startPgbouncer, type TestPgbouncer } from '../helpers/pgbouncer.mjs';
import { startPostgres, type TestPostgres } from '../helpers/postgres.mjs';
import { rejection } from '../helpers/rejection.js';

const unavailable = (() => {
  try {
    locatePgbouncer();
    return null;
  } catch (err) {
    return err as Error;
  }
})();

if (unavailable && process.env.CI) {
  test('pgbouncer can be had (CI runs the pooler tests)', () => {
    throw new Error(`the pgbouncer tests cannot run: ${unavailable.message}`);
  });
}

let server: TestPostgres;
let admin: pg.Client;
const poolers: Record<string, TestPgbouncer> = {};
const opened: StateBackend[] = [];
let tables = 0;

describe.skipIf(unavailable !== null)('behind pgbouncer', () => {
  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    const users = [{ name: server.user, password: server.password }];
    const start = async (name: string, poolMode: TestPgbouncer['poolMode'], settings: Record<string, number> = {}) => {
      poolers[name] = await startPgbouncer({ server, poolMode, users, settings });
    };
    // Each is kept in `poolers` as soon as it runs, so afterAll stops it whatever fails later.
    await Promise.all([start('transaction', 'transaction'), start('session', 'session'), start('statement', 'statement'),
      // One server session for every client: what one client leaves on it, the next one gets.
      start('shared', 'transaction', { default_pool_size: 1 })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(opened.splice(0).map((b) => b.close()));
    await Promise.allSettled(Object.values(poolers).map((p) => p.stop()));
    await admin?.end().catch(() => {});
    await server?.stop();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((b) => b.close()));
  });

  function open(url: string): StateBackend {
    const b = openPostgresBackend(url, { env: {} });
    opened.push(b);
    return b;
  }

  const freshUrl = (pooler: string) => `${poolers[pooler]!.url}?table=t${++tables}`;

  const info = (id: string): LockInfo => ({ id, scope: 'org 7', who: `user-${id}`, host: `host-${id}`, command: 'apply', started: '2025-01-01T00:00:00.000Z', pid: 4242 });


  /** Advisory locks granted on the server, seen directly (not through a pooler). */
  const advisoryLocks = async () => (await admin.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted")).rows;

  /** Ends the server session holding the one advisory lock, directly on the server. */
  async function terminateLockHolder(): Promise<void> {
    const held = await advisoryLocks();
    expect(held).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [held[0]!.pid]);
    await expect.poll(async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [held[0]!.pid])).rowCount).toBe(0);
  }

  describe('transaction pooling', () => {
    test('the stock config takes menuctl\'s connections: no startup parameter it refuses', async () => {
      const b = open(freshUrl('transaction'));
      const v = await b.write('x\n', null, 'm');
      expect(await b.read()).toEqual({ text: 'x\n', version: v });
      // What it refuses, and that such a refusal is not mistaken for a server that does not answer.
      const c = new pg.Client({ connectionString: poolers.transaction!.url, statement_timeout: 1_000 });
      c.on('error', () => {});
      const err = await rejection(c.connect());
      expect((err as { code?: string }).code).toBe('08P01');
      expect(err.message).toContain('unsupported startup parameter: statement_timeout');
      const said = describeError(err, { shown: 'postgres://x@h/db', connection: {} }, 'connect').message;
      expect(said).toContain('unsupported startup parameter: statement_timeout');
      expect(said).not.toMatch(/no answer/);
    });

    test('a second lock while the first is held is refused, naming the holder, however the pool hands out server sessions', async () => {
      const url = freshUrl('transaction');
      const [a, b, c] = [open(url), open(url), open(url)];
      const lockA = info('lock-a');
      await a.lock(lockA, { timeoutMs: 0 });
      for (let round = 0; round < 5; round++) {
        // Other clients' statements go through the server sessions in turn meanwhile.
        await Promise.all([b.read(), c.locks(), a.read(), b.locks(), c.read()]);
        const err = await rejection((round % 2 ? c : b).lock(info(`lock-${round}`), { timeoutMs: round === 4 ? 300 : 0 }));
        expect(err).toBeInstanceOf(LockHeld);
        expect((err as LockHeld).holder.id).toBe('lock-a');
        await a.verify(lockA);
      }
      expect(await advisoryLocks()).toHaveLength(1);
      expect((await c.locks()).map((l) => l.id)).toEqual(['lock-a']);
      const v = await a.write('by a\n', null, 'a', [lockA]);
      expect(await a.unlock('lock-a')).toEqual(lockA);
      expect(await advisoryLocks()).toHaveLength(0);
      await b.lock(info('lock-b'), { timeoutMs: 0 });
      await b.write('by b\n', v, 'b', [info('lock-b')]);
      expect((await c.read()).text).toBe('by b\n');
    });

    test('the lock\'s server session ended: verify and write refuse with LockLost, and another run locks', async () => {
      const url = freshUrl('transaction');
      const [a, b] = [open(url), open(url)];
      const lockA = info('lock-a');
      await a.lock(lockA, { timeoutMs: 0 });
      await terminateLockHolder();
      await expect(a.write('x\n', null, 'a', [lockA])).rejects.toBeInstanceOf(LockLost);
      await expect(a.verify(lockA)).rejects.toBeInstanceOf(LockLost);
      const stale: string[] = [];
      await b.lock(info('lock-b'), { timeoutMs: 0, onStale: (h) => stale.push(h.id) });
      expect(stale).toEqual(['lock-a']);
    });

    test('a holder killed with SIGKILL: the pooler ends its server session, and the lock is free', async () => {
      const url = freshUrl('transaction');
      const backendJs = fileURLToPath(new URL('../../dist/state/postgres.js', import.meta.url));
      const script = `
        const { openPostgresBackend } = await import(${JSON.stringify(backendJs)});
        const b = openPostgresBackend(process.env.STATE_URL, { env: {} });
        await b.lock(${JSON.stringify(info('lock-child'))}, { timeoutMs: 0 });
        console.log('locked');
        setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, STATE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise((r) => child.once('exit', r));
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (c: Buffer) => c.toString().includes('locked') && resolve());
          child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before locking`)));
        });
        const b = open(url);
        await expect(b.lock(info('lock-b'), { timeoutMs: 0 })).rejects.toBeInstanceOf(LockHeld);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      const stale: string[] = [];
      await open(url).lock(info('lock-b'), { timeoutMs: 20_000, onStale: (h) => stale.push(h.id) });
      expect(stale).toEqual(['lock-child']);
    });

    test('a server session that already holds the lock (a session lock left on it through the pooler) is refused, naming transaction pooling', async () => {
      const url = freshUrl('shared');
      const b = open(url);
      await b.locks();
      const key = advisoryKey(`.${new URL(url).searchParams.get('table')}`, info('x').scope);
      // Another client takes a session-level lock through the pooler and goes: the lock stays on
      // the pool's only server session, which menuctl gets next.
      const other = new pg.Client({ connectionString: poolers.shared!.url });
      await other.connect();
      await other.query('SELECT pg_advisory_lock($1)', [String(key)]);
      await other.end();
      try {
        const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 0 }));
        expect(err).not.toBeInstanceOf(LockHeld);
        expect(err.message).toContain(b.shown);
        expect(err.message).toMatch(/already holds the lock of org 7, before menuctl took it: a pooler in transaction or statement mode/);
        expect(err.message).toMatch(/connect to PostgreSQL directly or through a session-mode pool/);
        expect(await b.locks()).toEqual([]);
      } finally {
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted");
      }
    });
  });

  describe('session pooling', () => {
    test('locks work as they do directly: refused while held, LockLost when the session ends, free afterwards', async () => {
      const url = freshUrl('session');
      const [a, b] = [open(url), open(url)];
      const lockA = info('lock-a');
      await a.lock(lockA, { timeoutMs: 0 });
      const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 0 }));
      expect((err as LockHeld).holder.id).toBe('lock-a');
      await a.write('by a\n', null, 'a', [lockA]);
      await a.verify(lockA);
      await terminateLockHolder();
      await expect(a.verify(lockA)).rejects.toBeInstanceOf(LockLost);
      await b.lock(info('lock-b'), { timeoutMs: 0 });
      expect(await b.unlock('lock-b')).toEqual(info('lock-b'));
      expect(await advisoryLocks()).toHaveLength(0);
    });
  });

  describe('statement pooling', () => {
    test('reading works; a lock is refused, naming statement pooling and what to use', async () => {
      const prefix = `t${++tables}`;
      // The tables exist (made directly): plan and drift only read.
      await open(`${server.url}?table=${prefix}`).write('x\n', null, 'm');
      const b = open(`${poolers.statement!.url}?table=${prefix}`);
      expect((await b.read()).text).toBe('x\n');
      const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 0 }));
      expect(err.message).toContain('transaction blocks not allowed in statement pooling mode');
      expect(err.message).toMatch(/use pool_mode = transaction or session/);
      expect(await advisoryLocks()).toHaveLength(0);
    });
  });
});
