// Credentials in a `git+http://USER:PASS@...` state URL (issue 35.1) against a real git HTTP
// server with Basic auth (test/helpers/git-http.ts): the password reaches git through its
// environment only, never a command line (`ps`) or a file a killed run leaves behind.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo, StateBackend } from '../../src/state/backend.js';
import { openGitBackend } from '../../src/state/git.js';
import { startGitHttpServer } from '../helpers/git-http.js';
import type { GitHttpServer } from '../helpers/git-http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const USER = 'ci-bot';
const PASSWORD = `pw-${Math.random().toString(36).slice(2)}-s3cret`;

const dirs: string[] = [];
const tmp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const opened: StateBackend[] = [];

let server: GitHttpServer;
beforeAll(async () => {
  server = await startGitHttpServer({ root: tmp('menuctl-git-http-'), users: { [USER]: PASSWORD, 'ghp_t0kenAsUser': '' } });
});
afterAll(async () => {
  await server.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterEach(async () => {
  for (const b of opened.splice(0)) await b.close();
});

/** No git identity, no user or system config, unless a test writes one into HOME. */
function bareEnv(): NodeJS.ProcessEnv {
  const home = tmp('menuctl-git-home-');
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
}

function open(url: string, env: NodeJS.ProcessEnv = bareEnv()): StateBackend {
  const b = openGitBackend(`git+${url}#menuctl-state`, { env, cwd: tmpdir(), pollIntervalMs: 20 });
  opened.push(b);
  return b;
}

let nextRepo = 0;
const newRepo = (): string => {
  const name = `menus-${++nextRepo}.git`;
  server.createRepo(name);
  return name;
};

let nextId = 0;
const lockInfo = (scope: string): LockInfo => ({
  id: `lock-${++nextId}`, scope, who: 'ada', host: 'ci-runner-1', command: 'apply', started: '2026-11-27T10:00:00.000Z',
});

/** Every file under `dir` whose bytes contain `secret`. */
function filesHolding(dir: string, secret: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile() && readFileSync(path).includes(secret)) out.push(path);
  }
  return out;
}

/**
 * Watches every process's command line (/proc/PID/cmdline) from a separate process, as fast as
 * it can, until stopped: which contained the secret, and how many git remote helpers it saw (so
 * a watch that saw no git at all does not pass for a clean one). The secret is in its
 * environment, not its own command line.
 */
async function watchCommandLines(secret: string): Promise<{ stop(): Promise<{ leaks: string[]; helpers: number; sweeps: number }> }> {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    const secret = Buffer.from(process.env.WATCH_SECRET);
    const leaks = new Set(); const helpers = new Set(); let sweeps = 0; let stopping = false;
    process.stdin.on('end', () => { stopping = true; }); process.stdin.resume();
    const sweep = () => {
      for (const pid of readdirSync('/proc')) {
        if (!/^\\d+$/.test(pid) || pid === String(process.pid)) continue;
        let line; try { line = readFileSync('/proc/' + pid + '/cmdline'); } catch { continue; }
        if (line.includes(secret)) leaks.add(pid + ': ' + line.toString().replace(/\\0/g, ' '));
        if (line.includes('remote-http')) helpers.add(pid);
      }
      sweeps++;
      if (stopping) { process.stdout.write(JSON.stringify({ leaks: [...leaks], helpers: helpers.size, sweeps })); return; }
      if (sweeps === 1) process.stderr.write('ready');
      setImmediate(sweep);
    };
    sweep();`;
  const child = spawn(process.execPath, ['-e', script], { env: { WATCH_SECRET: secret }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  await new Promise<void>((ready) => child.stderr.once('data', () => ready()));
  return {
    stop: () => new Promise((done) => {
      child.on('close', () => done(JSON.parse(out) as { leaks: string[]; helpers: number; sweeps: number }));
      child.stdin.end();
    }),
  };
}

/** Runs `fn` with os.tmpdir() at a directory of its own (os.tmpdir() reads TMPDIR on every call). */
async function withTmpdir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

const SCOPE = 'https://api.example.com org 62';

describe('git backend over HTTP with credentials in the URL', () => {
  it('runs lock, write, verify and unlock with no process ever showing the password on its command line, and none on disk', async () => {
    const repo = newRepo();
    const scratchRoot = tmp('menuctl-git-tmp-');
    const env = bareEnv();
    const watch = await watchCommandLines(PASSWORD);
    const onDisk = await withTmpdir(scratchRoot, async () => {
      const b = open(server.url(repo, { user: USER, password: PASSWORD }), env);
      const info = lockInfo(SCOPE);
      await b.lock(info, { timeoutMs: 0 });
      let { version } = await b.read();
      for (const n of [1, 2, 3]) {
        await b.verify(info);
        version = await b.write(`record ${n}\n`, version, `menuctl apply: record ${n}`, [info]);
      }
      expect(await b.unlock(info.id)).toEqual(info);
      expect(await b.read()).toMatchObject({ text: 'record 3\n' });
      return filesHolding(scratchRoot, PASSWORD);
    });
    const seen = await watch.stop();
    expect(seen.leaks).toEqual([]);
    expect(seen.helpers).toBeGreaterThan(0);
    expect(onDisk).toEqual([]);
    expect(server.stats.unauthorized).toBeGreaterThan(0); // the server did ask for the credentials
  });

  it('fails with wrong credentials saying to check them, naming the remote without the password', async () => {
    const repo = newRepo();
    const wrong = `${PASSWORD}-wrong`;
    const b = open(server.url(repo, { user: USER, password: wrong }));
    const err = (await b.read().catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain(`git+http://${USER}:***@127.0.0.1:${server.port}/${repo}#menuctl-state`);
    expect(err.message).toMatch(/Authentication failed/);
    expect(err.message).toMatch(/the user name and password \(or token\) in the state URL are right/);
    expect(err.message).not.toContain(wrong);
  });

  it('takes a user name alone as a token with an empty password (https://TOKEN@github.com/...)', async () => {
    const repo = newRepo();
    const b = open(server.url(repo).replace('http://', 'http://ghp_t0kenAsUser@'));
    const v = await b.write('by token\n', null, 'm');
    expect(await b.read()).toEqual({ text: 'by token\n', version: v });
  });

  it('uses the user\'s own credential helper when the URL has no credentials', async () => {
    const repo = newRepo();
    const env = bareEnv();
    const store = join(env.HOME!, 'git-credentials');
    writeFileSync(store, `${server.url(repo, { user: USER, password: PASSWORD }).replace(`/${repo}`, '')}\n`);
    writeFileSync(join(env.HOME!, '.gitconfig'), `[credential]\n\thelper = store --file=${store}\n`);
    const b = open(server.url(repo), env);
    const v = await b.write('via helper\n', null, 'm');
    expect(await b.read()).toEqual({ text: 'via helper\n', version: v });
  });

  it('sets the user\'s credential helpers aside when the URL has credentials: none stores the password', async () => {
    const repo = newRepo();
    const env = bareEnv();
    const store = join(env.HOME!, 'git-credentials');
    writeFileSync(join(env.HOME!, '.gitconfig'), `[credential]\n\thelper = store --file=${store}\n`);
    await open(server.url(repo, { user: USER, password: PASSWORD }), env).write('x\n', null, 'm');
    expect(existsSync(store) ? readFileSync(store, 'utf8') : '').not.toContain(PASSWORD);
  });
});

describe('scratch repositories of killed runs', () => {
  let bundle: string;
  beforeAll(async () => {
    // The child runs the backend's source, bundled now: a dist/ from an older build would test old code.
    bundle = join(tmp('menuctl-git-bundle-'), 'git-backend.mjs');
    await build({ entryPoints: [join(ROOT, 'src/state/git.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
  });

  it('a SIGKILLed run leaves no password on disk, and the next run removes its scratch repository', async () => {
    const repo = newRepo();
    const scratchRoot = tmp('menuctl-git-tmp-');
    const other = join(scratchRoot, 'menuctl-git-state-00000000-1-abcdef'); // another host's: kept
    mkdirSync(other);
    const script = `
      const { openGitBackend } = await import(process.env.BUNDLE);
      const b = openGitBackend(process.env.STATE_URL, { env: process.env, cwd: process.cwd() });
      const info = { id: 'killed-run', scope: 's', who: 'ada', host: 'h', command: 'apply', started: 'now' };
      await b.lock(info, { timeoutMs: 0 });
      await b.write('written before the kill\\n', (await b.read()).version, 'm', [info]);
      process.stdout.write('ready');
      setInterval(() => {}, 1000);`;
    const env = { ...bareEnv(), TMPDIR: scratchRoot, BUNDLE: bundle, STATE_URL: `git+${server.url(repo, { user: USER, password: PASSWORD })}` };
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    await new Promise<void>((ready, fail) => {
      child.stdout.once('data', () => ready());
      child.on('exit', () => fail(new Error(`the child ended early: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((gone) => child.once('close', gone));
    const left = readdirSync(scratchRoot).filter((n) => n !== 'menuctl-git-state-00000000-1-abcdef');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^menuctl-git-state-[0-9a-f]{8}-${child.pid}-`));
    expect(filesHolding(join(scratchRoot, left[0]!), PASSWORD)).toEqual([]);

    const nextEnv = bareEnv();
    await withTmpdir(scratchRoot, async () => {
      const next = open(server.url(repo, { user: USER, password: PASSWORD }), nextEnv);
      expect(await next.read()).toMatchObject({ text: 'written before the kill\n' });
      const now = readdirSync(scratchRoot);
      expect(now).not.toContain(left[0]);
      expect(now).toContain('menuctl-git-state-00000000-1-abcdef');
      expect(now).toHaveLength(2); // the other host's, and the one in use
    });
  });

  it('removes a scratch repository of an older version (no owner in its name) once it is an hour old', async () => {
    const scratchRoot = tmp('menuctl-git-tmp-');
    const old = join(scratchRoot, 'menuctl-git-state-Ab12Cd');
    const recent = join(scratchRoot, 'menuctl-git-state-Xy34Zw');
    for (const d of [old, recent]) mkdirSync(d);
    writeFileSync(join(old, 'config'), `[remote "origin"]\n\turl = "http://${USER}:${PASSWORD}@host/x.git"\n`);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    const [repo, env] = [newRepo(), bareEnv()];
    await withTmpdir(scratchRoot, async () => {
      await open(server.url(repo, { user: USER, password: PASSWORD }), env).read();
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
    });
  });
});
