// The PostgreSQL state backend against a real server (test/helpers/postgres.mjs), one per file.
// Each test uses tables of its own prefix (?table=), so tests share the server, not state.

import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { LockHeld, LockLost, StateConflict, type LockInfo, type StateBackend } from '../../src/state/backend.js';
import { LockHolderAlive, advisoryKey, openPostgresBackend } from '../../src/state/postgres.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.mjs';
import { rejection } from '../helpers/rejection.js';

let server: TestPostgres;
let admin: pg.Client;
const opened: StateBackend[] = [];
let tables = 0;

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
});

/** A fresh table prefix: the URL of a state nobody has touched. */
const freshUrl = (base = server.url) => `${base}?table=t${++tables}`;

function open(url: string, env: NodeJS.ProcessEnv = {}): StateBackend {
  const b = openPostgresBackend(url, { env });
  opened.push(b);
  return b;
}

/** Two "runners" on the same state. */
function twoRunners(): [StateBackend, StateBackend, string] {
  const url = freshUrl();
  return [open(url), open(url), url];
}

const info = (id: string, scope = 'https://api.example.com org 1', command = 'apply'): LockInfo => ({
  id, scope, who: `user-${id}`, host: `host-${id}`, command, started: '2025-01-01T00:00:00.000Z', pid: 4242,
});


/** Ends the session holding the one advisory lock taken, and waits until it is gone. */
async function terminateLockHolder(): Promise<void> {
  const r = await admin.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted");
  expect(r.rows).toHaveLength(1);
  const pid = r.rows[0]!.pid;
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  for (;;) {
    const left = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (left.rowCount === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const menuctlSessions = async () =>
  Number((await admin.query<{ n: string }>("SELECT count(*)::text AS n FROM pg_stat_activity WHERE application_name = 'menuctl'")).rows[0]!.n);

describe('tables', () => {
  test('are created on first use, also by two runners at once, and an empty state reads as nothing', async () => {
    const [a, b, url] = twoRunners();
    const prefix = new URL(url).searchParams.get('table');
    const [ra, rb] = await Promise.all([a.read(), b.read()]);
    expect(ra).toEqual({ text: null, version: null });
    expect(rb).toEqual({ text: null, version: null });
    const made = await admin.query<{ t: string | null }>('SELECT to_regclass(x)::text AS t FROM unnest($1::text[]) AS x',
      [[`${prefix}_state`, `${prefix}_state_history`, `${prefix}_locks`]]);
    expect(made.rows.map((r) => r.t)).toEqual([`${prefix}_state`, `${prefix}_state_history`, `${prefix}_locks`]);
  });

  test('many runners creating at once all succeed', async () => {
    const url = freshUrl();
    const runners = Array.from({ length: 5 }, () => open(url));
    const snapshots = await Promise.all(runners.map((r) => r.locks()));
    expect(snapshots).toEqual(runners.map(() => []));
  });

  test('?schema= puts them in a schema of their own, created when missing', async () => {
    const b = open(`${server.url}?schema=team_a&table=state1`);
    await b.write('x\n', null, 'first');
    const r = await admin.query<{ body: string }>('SELECT body FROM team_a.state1_state');
    expect(r.rows).toEqual([{ body: 'x\n' }]);
  });
});

describe('read and write', () => {
  test('write stores the text and returns a new version; read returns both', async () => {
    const b = open(freshUrl());
    const v1 = await b.write('one\n', null, 'apply: first');
    expect(await b.read()).toEqual({ text: 'one\n', version: v1 });
    const v2 = await b.write('two\n', v1, 'apply: second');
    expect(v2).not.toBe(v1);
    expect(await b.read()).toEqual({ text: 'two\n', version: v2 });
  });

  test('every write leaves a history row with its message and body', async () => {
    const url = freshUrl();
    const b = open(url);
    const v1 = await b.write('one\n', null, 'apply by ana');
    const v2 = await b.write('two\n', v1, 'state rm by bo');
    const prefix = new URL(url).searchParams.get('table');
    const h = await admin.query(`SELECT version::text AS version, message, body FROM ${prefix}_state_history ORDER BY seq`);
    expect(h.rows).toEqual([
      { version: v1, message: 'apply by ana', body: 'one\n' },
      { version: v2, message: 'state rm by bo', body: 'two\n' },
    ]);
  });

  test('a stale expected version is a StateConflict and changes nothing', async () => {
    const b = open(freshUrl());
    const v1 = await b.write('one\n', null, 'm');
    const v2 = await b.write('two\n', v1, 'm');
    await expect(b.write('late\n', v1, 'm')).rejects.toBeInstanceOf(StateConflict);
    await expect(b.write('late\n', null, 'm')).rejects.toBeInstanceOf(StateConflict);
    await expect(b.write('late\n', 'not-a-version', 'm')).rejects.toBeInstanceOf(StateConflict);
    expect(await b.read()).toEqual({ text: 'two\n', version: v2 });
  });

  test('expecting a version when nothing is stored is a StateConflict', async () => {
    const b = open(freshUrl());
    await expect(b.write('x\n', '1', 'm')).rejects.toBeInstanceOf(StateConflict);
    expect(await b.read()).toEqual({ text: null, version: null });
  });

  test('two runners writing the first version at once: exactly one wins', async () => {
    const [a, b] = twoRunners();
    const results = await Promise.allSettled([a.write('from a\n', null, 'a'), b.write('from b\n', null, 'b')]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(StateConflict);
    const winner = results[0]!.status === 'fulfilled' ? 'from a\n' : 'from b\n';
    expect((await a.read()).text).toBe(winner);
  });

  test('five runners updating the same version at once: exactly one wins', async () => {
    const url = freshUrl();
    const runners = Array.from({ length: 5 }, () => open(url));
    const v1 = await runners[0]!.write('base\n', null, 'm');
    const results = await Promise.allSettled(runners.map((r, i) => r.write(`runner ${i}\n`, v1, `runner ${i}`)));
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StateConflict);
    expect((await runners[1]!.read()).text).toBe(`runner ${won[0]}\n`);
  });
});

describe('locks', () => {
  test('a second runner is refused with LockHeld naming the holder', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a', undefined, 'import'), { timeoutMs: 0 });
    const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 0 }));
    expect(err).toBeInstanceOf(LockHeld);
    expect((err as LockHeld).holder).toMatchObject({ id: 'lock-a', command: 'import', host: 'host-lock-a', who: 'user-lock-a' });
    expect(err.message).toContain('lock-a');
    expect(err.message).toContain('host-lock-a');
    expect(err.message).toContain('menuctl import');
    expect(await b.locks()).toEqual([info('lock-a', undefined, 'import')]);
  });

  test('another scope is locked independently', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a', 'environment prod'), { timeoutMs: 0 });
    await b.lock(info('lock-b', 'environment staging'), { timeoutMs: 0 });
    expect((await a.locks()).map((l) => l.id)).toEqual(['lock-a', 'lock-b']);
  });

  test('a waiting runner is told once, and gets the lock when the holder releases it', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    const told: LockInfo[] = [];
    await b.lock(info('lock-b'), {
      timeoutMs: 60_000,
      onWait: (holder) => {
        told.push(holder);
        void a.unlock('lock-a');
      },
    });
    expect(told.map((h) => h.id)).toEqual(['lock-a']);
    expect((await a.locks()).map((l) => l.id)).toEqual(['lock-b']);
  });

  test('a waiting runner whose wait runs out gets LockHeld, told once', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    const told: string[] = [];
    const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 300, onWait: (h) => told.push(h.id) }));
    expect(err).toBeInstanceOf(LockHeld);
    expect(told).toEqual(['lock-a']);
  });

  test('when the holder\'s session dies the lock is free, and the next taker learns of the dead holder', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    await terminateLockHolder();
    const stale: LockInfo[] = [];
    await b.lock(info('lock-b'), { timeoutMs: 0, onStale: (h) => stale.push(h) });
    expect(stale).toEqual([info('lock-a')]);
    expect((await b.locks()).map((l) => l.id)).toEqual(['lock-b']);
    // The dead holder's own unlock finds its lock gone and must not remove the new one.
    expect(await a.unlock('lock-a')).toBeNull();
    expect((await b.locks()).map((l) => l.id)).toEqual(['lock-b']);
  });

  test('a holder process killed with SIGKILL leaves no lock behind', async () => {
    const url = freshUrl();
    const backendJs = fileURLToPath(new URL('../../dist/state/postgres.js', import.meta.url));
    const script = `
      const { openPostgresBackend } = await import(${JSON.stringify(backendJs)});
      const b = openPostgresBackend(process.env.STATE_URL, { env: {} });
      await b.lock(${JSON.stringify(info('lock-child', undefined, 'apply'))}, { timeoutMs: 0 });
      console.log('locked');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, STATE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => c.toString().includes('locked') && resolve());
      child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before locking: ${stderr}`)));
    });
    const b = open(url);
    await expect(b.lock(info('lock-b'), { timeoutMs: 0 })).rejects.toBeInstanceOf(LockHeld);
    child.kill('SIGKILL');
    await exited;
    const stale: string[] = [];
    // The server notices the closed connection on its own; waiting covers that moment.
    await b.lock(info('lock-b'), { timeoutMs: 20_000, onStale: (h) => stale.push(h.id) });
    expect(stale).toEqual(['lock-child']);
  });

  test('a lock held with no row yet (its holder between the two steps) is still refused', async () => {
    const url = freshUrl();
    const b = open(url);
    await b.locks();
    const key = advisoryKey(`.${new URL(url).searchParams.get('table')}`, info('x').scope);
    await admin.query('SELECT pg_advisory_lock($1)', [String(key)]);
    try {
      const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 0 }));
      expect(err).toBeInstanceOf(LockHeld);
      expect((err as LockHeld).holder.id).toBe('(not yet recorded)');
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [String(key)]);
    }
    await b.lock(info('lock-b'), { timeoutMs: 0 });
  });

  test('a second lock of a scope this runner holds is refused', async () => {
    const b = open(freshUrl());
    await b.lock(info('lock-1'), { timeoutMs: 0 });
    const err = await rejection(b.lock(info('lock-2'), { timeoutMs: 0 }));
    expect(err).toBeInstanceOf(LockHeld);
    expect((err as LockHeld).holder.id).toBe('lock-1');
  });
});

/** A process that runs until killed: a holder "still running on this host". */
async function liveProcess(): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  const exited = new Promise((r) => child.once('exit', r));
  return { pid: child.pid!, stop: async () => { child.kill('SIGKILL'); await exited; } };
}

describe('lock loss', () => {
  test('a run whose lock session is ended: verify and write refuse with LockLost, and after another run locks, the first still cannot write', async () => {
    const [a, b] = twoRunners();
    const lockA = info('lock-a');
    await a.lock(lockA, { timeoutMs: 0 });
    await a.verify(lockA);
    const v1 = await a.write('one\n', null, 'a', [lockA]);
    await terminateLockHolder();
    // The write itself finds the lock gone (nothing checked it before).
    const err = await rejection(a.write('two\n', v1, 'a', [lockA]));
    expect(err).toBeInstanceOf(LockLost);
    expect(err.message).toMatch(/session ended/);
    await expect(a.verify(lockA)).rejects.toBeInstanceOf(LockLost);
    const stale: string[] = [];
    await b.lock(info('lock-b'), { timeoutMs: 0, onStale: (h) => stale.push(h.id) });
    expect(stale).toEqual(['lock-a']);
    await expect(a.write('two\n', v1, 'a', [lockA])).rejects.toBeInstanceOf(LockLost);
    await expect(a.verify(lockA)).rejects.toBeInstanceOf(LockLost);
    const v2 = await b.write('from b\n', v1, 'b', [info('lock-b')]);
    expect(await b.read()).toEqual({ text: 'from b\n', version: v2 });
  });

  test('the write\'s own check: the session ended after the last verify, another run locked meanwhile, and the write is refused', async () => {
    const [a, b] = twoRunners();
    const lockA = info('lock-a');
    await a.lock(lockA, { timeoutMs: 0 });
    const v1 = await a.write('one\n', null, 'a', [lockA]);
    await a.verify(lockA);
    await terminateLockHolder();
    await b.lock(info('lock-b'), { timeoutMs: 0 });
    const v2 = await b.write('from b\n', v1, 'b', [info('lock-b')]);
    // Even with the version b wrote (as if a had re-read), a's write is refused for its lock.
    const err = await rejection(a.write('late\n', v2, 'a', [lockA]));
    expect(err).toBeInstanceOf(LockLost);
    expect((await b.read()).text).toBe('from b\n');
  });

  test('verify: a lock row removed by someone else is a LockLost, and the scope is free again', async () => {
    const url = freshUrl();
    const a = open(url);
    const lockA = info('lock-a');
    await a.lock(lockA, { timeoutMs: 0 });
    await admin.query(`DELETE FROM ${new URL(url).searchParams.get('table')}_locks`);
    const err = await rejection(a.verify(lockA));
    expect(err).toBeInstanceOf(LockLost);
    expect(err.message).toMatch(/row was removed/);
    await open(url).lock(info('lock-b'), { timeoutMs: 0 });
  });

  test('a lock taken with another backend, or never, is not this run\'s', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    await expect(b.verify(info('lock-a'))).rejects.toBeInstanceOf(LockLost);
    await expect(b.write('x\n', null, 'b', [info('lock-a')])).rejects.toBeInstanceOf(LockLost);
    expect((await a.read()).text).toBeNull();
  });

  test('a holder whose session ended but whose process still runs on this host is not taken over: LockHeld until it ends', async () => {
    const [a, b] = twoRunners();
    const proc = await liveProcess();
    try {
      const holder = { ...info('lock-a'), host: hostname(), pid: proc.pid };
      await a.lock(holder, { timeoutMs: 0 });
      await terminateLockHolder();
      const err = await rejection(b.lock(info('lock-b'), { timeoutMs: 0 }));
      expect(err).toBeInstanceOf(LockHeld);
      expect((err as LockHeld).holder.id).toBe('lock-a');
      expect(err.message).toContain(`process ${proc.pid} still runs on this host`);
      // Listed as held, and state unlock refuses it unless forced.
      expect((await b.locks()).map((l) => l.id)).toEqual(['lock-a']);
      await expect(b.unlock('lock-a')).rejects.toBeInstanceOf(LockHolderAlive);
      // The scope's advisory lock was given back: nobody holds it while refusing.
      expect((await admin.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory'")).rowCount).toBe(0);
    } finally {
      await proc.stop();
    }
    const stale: string[] = [];
    await b.lock(info('lock-b'), { timeoutMs: 0, onStale: (h) => stale.push(h.id) });
    expect(stale).toEqual(['lock-a']);
  });

  test('unlock --force of a live holder ends its session: the holder then gets LockLost and another run can lock', async () => {
    const [a, b] = twoRunners();
    const lockA = info('lock-a');
    await a.lock(lockA, { timeoutMs: 0 });
    await expect(b.unlock('lock-a')).rejects.toBeInstanceOf(LockHolderAlive);
    expect(await b.unlock('lock-a', { force: true })).toEqual(lockA);
    expect(await b.locks()).toEqual([]);
    await expect(a.verify(lockA)).rejects.toBeInstanceOf(LockLost);
    await b.lock(info('lock-b'), { timeoutMs: 0 });
    await expect(a.write('x\n', null, 'a', [lockA])).rejects.toBeInstanceOf(LockLost);
    // a's close releases nothing of b's.
    await a.close();
    expect((await b.locks()).map((l) => l.id)).toEqual(['lock-b']);
  });

  test('server limits on idle transactions and sessions do not end a lock that idles while its run works', async () => {
    await admin.query("CREATE ROLE idler LOGIN PASSWORD 'pw-idler'; GRANT CREATE ON SCHEMA public TO idler");
    try {
      await admin.query("ALTER ROLE idler SET idle_in_transaction_session_timeout = '300ms'; ALTER ROLE idler SET idle_session_timeout = '300ms'; ALTER ROLE idler SET transaction_timeout = '500ms'");
      const a = open(`postgres://idler:pw-idler@127.0.0.1:${server.port}/${server.database}?table=t${++tables}`);
      const lockA = info('lock-a');
      await a.lock(lockA, { timeoutMs: 0 });
      await new Promise((r) => setTimeout(r, 1_500));
      await a.verify(lockA);
      await a.write('x\n', null, 'a', [lockA]);
      expect(await a.unlock('lock-a')).toEqual(lockA);
    } finally {
      await Promise.all(opened.splice(0).map((b) => b.close()));
      await admin.query('DROP OWNED BY idler; DROP ROLE idler');
    }
  });

  test('unlock --force of a lock whose holder process still runs on this host, its session gone: released', async () => {
    const [a, b] = twoRunners();
    const proc = await liveProcess();
    try {
      await a.lock({ ...info('lock-a'), host: hostname(), pid: proc.pid }, { timeoutMs: 0 });
      await terminateLockHolder();
      expect((await b.unlock('lock-a', { force: true }))?.id).toBe('lock-a');
      await b.lock(info('lock-b'), { timeoutMs: 0 });
    } finally {
      await proc.stop();
    }
  });
});

describe('unlock', () => {
  test('our own lock: released, its row gone, and the scope free for the next runner', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    expect(await a.unlock('lock-a')).toEqual(info('lock-a'));
    expect(await a.locks()).toEqual([]);
    await b.lock(info('lock-b'), { timeoutMs: 0 });
  });

  test('an id nobody holds: null', async () => {
    const b = open(freshUrl());
    expect(await b.unlock('no-such-lock')).toBeNull();
  });

  test('a lock its dead holder left behind is removed by another runner', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    await terminateLockHolder();
    // Not listed as held (its session ended), yet its row is there to remove by id.
    expect(await b.locks()).toEqual([]);
    expect(await b.unlock('lock-a')).toEqual(info('lock-a'));
    expect(await b.locks()).toEqual([]);
    const stale: string[] = [];
    await b.lock(info('lock-b'), { timeoutMs: 0, onStale: (h) => stale.push(h.id) });
    expect(stale).toEqual([]);
  });

  test('a live holder\'s lock is refused, naming the holder and how to end its session', async () => {
    const [a, b] = twoRunners();
    await a.lock(info('lock-a', undefined, 'state rm'), { timeoutMs: 0 });
    const err = await rejection(b.unlock('lock-a'));
    expect(err).toBeInstanceOf(LockHolderAlive);
    expect(err).toBeInstanceOf(LockHeld);
    expect(err.message).toContain('host-lock-a');
    expect(err.message).toContain('menuctl state rm');
    const pid = (await admin.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted")).rows[0]!.pid;
    expect(err.message).toContain(`pg_terminate_backend(${pid})`);
    // Still held: the row stays and a third runner is refused.
    expect((await b.locks()).map((l) => l.id)).toEqual(['lock-a']);
    await expect(b.lock(info('lock-b'), { timeoutMs: 0 })).rejects.toBeInstanceOf(LockHeld);
  });
});

describe('connections and secrets', () => {
  test('shown is the URL without its password', async () => {
    const b = open(freshUrl());
    expect(b.shown).not.toContain(server.password);
    expect(b.shown).toContain(`${server.user}@127.0.0.1:${server.port}/`);
  });

  test('the password may come from PGPASSWORD in the env given', async () => {
    const noPassword = server.url.replace(`:${server.password}@`, '@');
    const b = open(freshUrl(noPassword), { PGPASSWORD: server.password });
    expect(await b.read()).toEqual({ text: null, version: null });
  });

  test('no password given: the error says to set PGPASSWORD (process.env is not consulted)', async () => {
    const noPassword = server.url.replace(`:${server.password}@`, '@');
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = server.password;
    try {
      const b = open(freshUrl(noPassword), {});
      const err = await rejection(b.read());
      expect(err.message).toContain('PGPASSWORD');
      expect(err.message).toContain(b.shown);
      expect(err.message).not.toContain(server.password);
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
  });

  test('a wrong password: the error names the URL and what to check, never the password', async () => {
    const wrong = 'Wr0ng-S3cret-xyz';
    const b = open(freshUrl(server.url.replace(`:${server.password}@`, `:${wrong}@`)));
    expect(b.shown).not.toContain(wrong);
    for (const attempt of [b.read(), b.write('x', null, 'm'), b.lock(info('l'), { timeoutMs: 0 }), b.locks(), b.unlock('l')]) {
      const err = await rejection(attempt);
      expect(err.message).toContain(b.shown);
      expect(err.message).toMatch(/password/);
      expect(err.message).not.toContain(wrong);
      expect(err.message).not.toContain(server.password);
      expect(String(err.stack)).not.toContain(wrong);
    }
  });

  test('a server that does not run: the error names the URL and says to check it runs', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const b = open(`postgres://${server.user}:${server.password}@127.0.0.1:${port}/postgres`);
    const err = await rejection(b.read());
    expect(err.message).toContain(b.shown);
    expect(err.message).toMatch(/server runs/);
    expect(err.message).not.toContain(server.password);
  });

  test('URLs that cannot be right are refused without echoing the password', () => {
    expect(() => openPostgresBackend('mysql://u:hunter22@h/db', { env: {} })).toThrow(/postgres:\/\/USER@HOST/);
    expect(() => openPostgresBackend('postgres://u:hunter22@h/db?tabel=x', { env: {} })).toThrow(/unknown parameter "tabel"/);
    expect(() => openPostgresBackend('postgres://u:hunter22@h/db?table=x;drop', { env: {} })).toThrow(/SQL name/);
    for (const bad of ['mysql://u:hunter22@h/db', 'postgres://u:hunter22@h/db?tabel=x', 'postgres://u:hunter22@h/db?table=Bad',
      'postgres://u@h/db?password=hunter22&tabel=x', 'postgres://u:hunter22%zz@h/db', 'postgres://u:hun@ter22@h:x/db']) {
      expect(() => openPostgresBackend(bad, { env: {} })).toThrow();
      try {
        openPostgresBackend(bad, { env: {} });
      } catch (err) {
        expect((err as Error).message).not.toMatch(/hunter|ter22/);
      }
    }
  });

  test('close() releases its locks and ends every connection', async () => {
    await expect.poll(menuctlSessions).toBe(0);
    const url = freshUrl();
    const a = openPostgresBackend(url, { env: {} });
    await a.write('x\n', null, 'm');
    await a.lock(info('lock-a'), { timeoutMs: 0 });
    await a.lock(info('lock-a2', 'environment other'), { timeoutMs: 0 });
    expect(await menuctlSessions()).toBeGreaterThan(0);
    await a.close();
    await expect.poll(menuctlSessions).toBe(0);
    const b = open(url);
    expect(await b.locks()).toEqual([]);
    await b.lock(info('lock-b'), { timeoutMs: 0 });
    await expect(a.read()).rejects.toThrow(/closed/);
  });
});
