// One contract, every backend (issue 34 item 6): what src/state/backend.ts promises, run against
// the file backend, git over file://, git over HTTP with basic auth (a real git http-backend),
// and a real PostgreSQL. A new backend is a new row in BACKENDS; the cases stay as they are.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LockHeld, LockLost, StateConflict, type LockInfo, type StateBackend } from '../../src/state/backend.js';
import { openState } from '../../src/state/open.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.mjs';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http.js';

const dirs: string[] = [];
const tmp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

/** An environment with no git identity and no user or system config: a fresh CI runner. */
function bareEnv(): NodeJS.ProcessEnv {
  const home = tmp('menuctl-contract-home-');
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
}

let pgServer: TestPostgres | undefined;
let gitHttp: GitHttpServer | undefined;
let n = 0;

interface Row {
  name: string;
  /** A fresh state URL nobody has touched yet, and the environment to open it with. */
  fresh(): Promise<{ url: string; env: NodeJS.ProcessEnv }>;
}

const BACKENDS: Row[] = [
  { name: 'file', fresh: async () => ({ url: `file:${join(tmp('menuctl-contract-file-'), 'menuctl.lock')}`, env: {} }) },
  {
    name: 'git (file://)',
    fresh: async () => {
      const bare = join(tmp('menuctl-contract-git-'), 'state.git');
      execFileSync('git', ['init', '--bare', '--quiet', bare], { env: bareEnv() });
      return { url: `git+file://${bare}#menuctl-state`, env: bareEnv() };
    },
  },
  {
    name: 'git (HTTP, basic auth)',
    fresh: async () => {
      const name = `r${++n}.git`;
      gitHttp!.createRepo(name);
      return { url: `git+${gitHttp!.url(name, HTTP_USER)}#menuctl-state`, env: bareEnv() };
    },
  },
  { name: 'PostgreSQL', fresh: async () => ({ url: `${pgServer!.url}?table=contract${++n}`, env: {} }) },
];

const HTTP_USER = { user: 'ci', password: 'pa:ss/w#rd?1' };

beforeAll(async () => {
  [pgServer, gitHttp] = await Promise.all([
    startPostgres(),
    startGitHttpServer({ root: mkdtempSync(join(tmpdir(), 'menuctl-contract-http-')), users: { [HTTP_USER.user]: HTTP_USER.password } }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([pgServer?.stop(), gitHttp?.close()]);
  if (gitHttp) rmSync(gitHttp.root, { recursive: true, force: true });
});

const opened: StateBackend[] = [];
afterEach(async () => {
  for (const b of opened.splice(0)) await b.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const lockOf = (id: string, scope = 'https://api.example.com org 1'): LockInfo => ({
  id, scope, who: 'contract', host: hostname(), command: 'apply', started: new Date().toISOString(), pid: process.pid,
});

describe.each(BACKENDS)('state backend contract: $name', (row) => {
  async function two(): Promise<[StateBackend, StateBackend]> {
    const { url, env } = await row.fresh();
    const open = async () => {
      const b = await openState(url, { env, cwd: process.cwd() });
      opened.push(b);
      return b;
    };
    return [await open(), await open()];
  }

  it('reads nothing at first; a write is read back whole with a new version; a stale version is a StateConflict', async () => {
    const [a, b] = await two();
    expect(await a.read()).toEqual({ text: null, version: null });
    const v1 = await a.write('one\n', null, 'first');
    expect(await b.read()).toEqual({ text: 'one\n', version: v1 });
    const v2 = await b.write('two\n', v1, 'second');
    expect(v2).not.toBe(v1);
    await expect(a.write('three\n', v1, 'stale')).rejects.toBeInstanceOf(StateConflict);
    await expect(a.write('three\n', null, 'from nothing')).rejects.toBeInstanceOf(StateConflict);
    expect((await a.read()).text).toBe('two\n');
  });

  it('a held lock refuses a second holder, naming the first; another scope is free; unlock releases it', async () => {
    const [a, b] = await two();
    await a.lock(lockOf('lock-a'), { timeoutMs: 0 });
    const err = await b.lock(lockOf('lock-b'), { timeoutMs: 0 }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(LockHeld);
    expect((err as LockHeld).holder.id).toBe('lock-a');
    await b.lock(lockOf('lock-c', 'https://api.example.com org 2'), { timeoutMs: 0 });
    expect((await b.locks()).map((l) => l.id).sort()).toEqual(['lock-a', 'lock-c']);
    expect(await a.unlock('lock-a')).toMatchObject({ id: 'lock-a' });
    await b.lock(lockOf('lock-b'), { timeoutMs: 0 });
    expect(await a.unlock('no-such-lock')).toBeNull();
  });

  it('a holder verifies its lock and writes under it; once another run releases it with force, verify and the write throw LockLost and the stored text is unchanged', async () => {
    const [a, b] = await two();
    const mine = lockOf('held');
    await a.lock(mine, { timeoutMs: 0 });
    await a.verify(mine);
    // The version comes from a read (on git the lock itself is a commit on the branch).
    const v = await a.write('mine\n', (await a.read()).version, 'while held', [mine]);
    expect(await b.unlock(mine.id, { force: true })).toMatchObject({ id: mine.id });
    await expect(a.verify(mine)).rejects.toBeInstanceOf(LockLost);
    // Written on the version it read last a write may first be a StateConflict (on git the
    // release is a commit); on the current version it is LockLost, whatever the backend.
    await expect(a.write('after the loss\n', v, 'lost', [mine])).rejects.toSatisfy((e) => e instanceof LockLost || e instanceof StateConflict);
    await expect(a.write('after the loss\n', (await a.read()).version, 'lost', [mine])).rejects.toBeInstanceOf(LockLost);
    // And once another run holds it, the first still cannot write.
    await b.lock(lockOf('taker'), { timeoutMs: 0 });
    await expect(a.write('after the take-over\n', (await a.read()).version, 'lost', [mine])).rejects.toBeInstanceOf(LockLost);
    expect((await b.read()).text).toBe('mine\n');
  });

  it('waits up to the timeout, told once, and takes the lock when the holder releases it meanwhile', async () => {
    const [a, b] = await two();
    await a.lock(lockOf('first'), { timeoutMs: 0 });
    const told: string[] = [];
    const waiting = b.lock(lockOf('second'), { timeoutMs: 20_000, onWait: (h) => told.push(h.id) });
    await new Promise((r) => setTimeout(r, 300));
    await a.unlock('first');
    await waiting;
    expect(told).toEqual(['first']);
    expect((await a.locks()).map((l) => l.id)).toEqual(['second']);
  });
});
