// The git state backend against real bare repositories (file:// remotes), run with an empty HOME
// and no system config: the fresh CI runner with no git identity.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockHeld, StateConflict } from '../../src/state/backend.js';
import type { LockInfo, StateBackend } from '../../src/state/backend.js';
import { lockFile, openGitBackend, parseGitStateUrl } from '../../src/state/git.js';
import { scrubSecrets, splitCredentials, urlSecrets } from '../../src/state/git-url.js';
import type { GitBackendOptions } from '../../src/state/git.js';

const dirs: string[] = [];
const opened: StateBackend[] = [];
const tmp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

afterEach(async () => {
  for (const b of opened.splice(0)) await b.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An environment with no git identity and no user or system config. */
function bareEnv(): NodeJS.ProcessEnv {
  const home = tmp('menuctl-git-home-');
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
}

const env = bareEnv();

function git(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync('git', args, { cwd: options.cwd, env: options.env ?? env, encoding: 'utf8' }).trim();
}

function bareRemote(): string {
  const d = tmp('menuctl-git-remote-');
  git(['init', '--bare', '--quiet', d]);
  return d;
}

function open(remote: string, extra: Partial<GitBackendOptions> = {}): StateBackend {
  const b = openGitBackend(`git+file://${remote}#menuctl-state`, { env, cwd: tmpdir(), pollIntervalMs: 20, ...extra });
  opened.push(b);
  return b;
}

const tipOf = (remote: string, branch = 'menuctl-state'): string => git(['--git-dir', remote, 'rev-parse', `refs/heads/${branch}`]);
const logOf = (remote: string, format = '%s'): string[] =>
  git(['--git-dir', remote, 'log', `--format=${format}`, 'refs/heads/menuctl-state']).split('\n');

let nextId = 0;
const lockInfo = (scope: string, over: Partial<LockInfo> = {}): LockInfo => ({
  id: `lock-${++nextId}`, scope, who: 'ada', host: 'ci-runner-1', command: 'apply', started: '2026-11-27T10:00:00.000Z', ...over,
});

const SCOPE = 'https://api.example.com org 62';

describe('parseGitStateUrl', () => {
  it.each([
    ['git+file:///srv/menus.git#menuctl-state', 'file:///srv/menus.git', 'menuctl-state', 'file:///srv/menus.git'],
    ['git+https://github.com/acme/menus.git', 'https://github.com/acme/menus.git', 'menuctl-state', 'https://github.com/acme/menus.git'],
    ['git+ssh://git@host/x.git#b', 'ssh://git@host/x.git', 'b', 'ssh://git@host/x.git'],
    ['git+/srv/menus.git', '/srv/menus.git', 'menuctl-state', '/srv/menus.git'],
    ['git+git@github.com:acme/menus.git#state/prod', 'git@github.com:acme/menus.git', 'state/prod', 'git@github.com:acme/menus.git'],
    ['git+https://user:tok3n@host/x.git#b', 'https://user:tok3n@host/x.git', 'b', 'https://user:***@host/x.git'],
    ['git+https://ghp_t0kenAsUser@github.com/x.git', 'https://ghp_t0kenAsUser@github.com/x.git', 'menuctl-state', 'https://***@github.com/x.git'],
  ])('%s', (url, remote, branch, shownRemote) => {
    expect(parseGitStateUrl(url)).toMatchObject({ remote, branch, shown: `git+${shownRemote}#${branch}` });
  });

  it.each([
    ['https://github.com/acme/menus.git', /does not start with git\+/],
    ['git+', /remote is empty/],
    ['git+#b', /remote is empty/],
    ['git+/srv/menus.git#', /branch is empty/],
    ['git+/srv/menus.git#a..b', /branch contains "\.\."/],
    ['git+/srv/menus.git#-x', /branch starts with "-"/],
    ['git+-oProxyCommand=x', /starts with "-"/],
    ['git+ext::sh -c x', /space|transport::address/],
    ['git+https://', /no host or path/],
    ['git+ssh://git:pw@host/x.git', /password in this kind of URL would be handed to ssh/],
    ['git+https://bot:a%0Ab@host/x.git', /line break/],
  ])('refuses %s', (url, why) => {
    expect(() => parseGitStateUrl(url)).toThrow(why);
  });

  it('never shows a password, even in the error for a malformed URL', () => {
    // A refused URL may be malformed in its credentials: all up to its last @ is hidden.
    expect(() => parseGitStateUrl('git+https://u:pa#ss@host/x.git')).toThrow(/https:\/\/\*\*\*@/);
    for (const [url, password] of [['git+https://u:pa#ss@host/x.git', 'pa#ss'], ['git+https://u:pa/ss@host/x.git', 'pa/ss'], ['git+user:se/cret@host:path', 'se/cret']]) {
      expect(() => parseGitStateUrl(url!)).toThrow();
      try {
        parseGitStateUrl(url!);
      } catch (err) {
        expect((err as Error).message).not.toContain(password);
      }
    }
  });

  it('masks a password that holds quotes, @ or :, in the URL it shows', () => {
    for (const password of ["pa'ss", 'pa"ss', 'p@ss', 'p:ss']) {
      const shown = parseGitStateUrl(`git+https://u:${encodeURIComponent(password).replace(/%40/, '@').replace(/%3A/, ':').replace(/%27/, "'").replace(/%22/, '"')}@host/x.git`).shown;
      expect(shown).toBe('git+https://u:***@host/x.git#menuctl-state');
    }
  });
});

describe('splitCredentials', () => {
  it.each([
    ['https://bot:p%40ss@git.example.com/x.git', 'https://git.example.com/x.git', { username: 'bot', password: 'p@ss' }],
    ['https://ghp_t0ken@github.com/x.git', 'https://github.com/x.git', { username: 'ghp_t0ken', password: '' }],
    ['https://u:p@ss@host:8443/x.git', 'https://host:8443/x.git', { username: 'u', password: 'p@ss' }],
    ['https://github.com/x.git', 'https://github.com/x.git', null],
    ['ssh://git@host/x.git', 'ssh://git@host/x.git', null],
    ['git@github.com:acme/menus.git', 'git@github.com:acme/menus.git', null],
  ])('%s', (remote, url, credentials) => {
    expect(splitCredentials(remote)).toEqual({ url, credentials });
  });
});

describe('scrubSecrets', () => {
  it('masks URL credentials and the remote\'s password wherever git repeats it, percent-decoded too', () => {
    const remote = 'https://bot:p%40ss-w0rd@git.example.com/acme/menus.git';
    const said = `fatal: unable to access '${remote}/': 403\nremote: bad credentials p@ss-w0rd for bot`;
    const out = scrubSecrets(said, urlSecrets(remote));
    expect(out).not.toContain('p%40ss-w0rd');
    expect(out).not.toContain('p@ss-w0rd');
    expect(out).toContain('https://bot:***@git.example.com/acme/menus.git');
  });
});

describe('git backend: the record', () => {
  it('reads nothing from a branch that does not exist yet, and leaves the remote alone', async () => {
    const remote = bareRemote();
    expect(await open(remote).read()).toEqual({ text: null, version: null });
    expect(git(['--git-dir', remote, 'for-each-ref'])).toBe('');
  });

  it('writes with no git identity configured, then reads back the text at the new tip', async () => {
    const remote = bareRemote();
    const b = open(remote);
    const text = '# menuctl applied-state record\n{"scope":"s","address":"app[\\"é\\"]","id":"1"}\n';
    const v1 = await b.write(text, null, 'menuctl apply: record for s');
    expect(v1).toBe(tipOf(remote));
    expect(await b.read()).toEqual({ text, version: v1 });
    expect(await open(remote).read()).toEqual({ text, version: v1 });
    expect(logOf(remote, '%an <%ae>|%s')).toEqual(['menuctl <menuctl@localhost>|menuctl apply: record for s']);
    expect(git(['--git-dir', remote, 'ls-tree', '--name-only', '-r', 'menuctl-state'])).toBe('menuctl.lock');
  });

  it('refuses a write on a stale version with StateConflict and changes nothing', async () => {
    const remote = bareRemote();
    const b = open(remote);
    const v1 = await b.write('one\n', null, 'first');
    const v2 = await b.write('two\n', v1, 'second');
    await expect(b.write('three\n', v1, 'stale')).rejects.toBeInstanceOf(StateConflict);
    await expect(b.write('three\n', null, 'as if first')).rejects.toBeInstanceOf(StateConflict);
    expect(tipOf(remote)).toBe(v2);
    expect(await open(remote).read()).toEqual({ text: 'two\n', version: v2 });
  });

  it('lets exactly one of two racing writers win; the other gets StateConflict', async () => {
    const remote = bareRemote();
    const v0 = await open(remote).write('base\n', null, 'base');
    const [a, b] = [open(remote), open(remote)];
    expect((await a.read()).version).toBe(v0);
    expect((await b.read()).version).toBe(v0);
    const results = await Promise.allSettled([a.write('from a\n', v0, 'a'), b.write('from b\n', v0, 'b')]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(StateConflict);
    const winner = results[0]!.status === 'fulfilled' ? 'from a\n' : 'from b\n';
    expect(await open(remote).read()).toEqual({ text: winner, version: (won[0] as PromiseFulfilledResult<string>).value });
    expect(logOf(remote)).toHaveLength(2);
  });

  it('turns a push rejected because another writer got in after the fetch into StateConflict, never a force', async () => {
    const remote = bareRemote();
    const v0 = await open(remote).write('base\n', null, 'base');
    const rival = open(remote);
    let rivalVersion = '';
    const b = open(remote, { beforePush: async () => { rivalVersion = await rival.write('rival\n', v0, 'rival'); } });
    await expect(b.write('mine\n', v0, 'mine')).rejects.toBeInstanceOf(StateConflict);
    expect(await open(remote).read()).toEqual({ text: 'rival\n', version: rivalVersion });
  });

  it('makes each write one commit on its branch and leaves main and other branches as they were', async () => {
    const remote = bareRemote();
    const work = tmp('menuctl-git-work-');
    git(['init', '--quiet', '-b', 'main', work]);
    writeFileSync(join(work, 'menuctl.yaml'), 'version: 1\n');
    git(['add', '.'], { cwd: work });
    git(['-c', 'user.name=dev', '-c', 'user.email=dev@example.com', 'commit', '--quiet', '-m', 'config'], { cwd: work });
    git(['push', '--quiet', remote, 'main', 'main:feature'], { cwd: work });
    const main = tipOf(remote, 'main');
    const b = open(remote);
    let v: string | null = null;
    for (const n of [1, 2, 3]) v = await b.write(`record ${n}\n`, v, `menuctl apply: record for scope ${n}`);
    expect(logOf(remote)).toEqual(['menuctl apply: record for scope 3', 'menuctl apply: record for scope 2', 'menuctl apply: record for scope 1']);
    expect(tipOf(remote, 'main')).toBe(main);
    expect(tipOf(remote, 'feature')).toBe(main);
    expect(git(['--git-dir', remote, 'for-each-ref', '--format=%(refname)']).split('\n').sort())
      .toEqual(['refs/heads/feature', 'refs/heads/main', 'refs/heads/menuctl-state']);
  });

  it('commits as the user when they have an identity, despite commit signing and hooks in their git config', async () => {
    const remote = bareRemote();
    const userEnv = bareEnv();
    const hooks = join(userEnv.HOME!, 'hooks');
    mkdirSync(hooks);
    for (const hook of ['pre-push', 'pre-commit', 'commit-msg']) {
      writeFileSync(join(hooks, hook), '#!/bin/sh\necho "hook ran" >&2\nexit 1\n');
      chmodSync(join(hooks, hook), 0o755);
    }
    writeFileSync(join(userEnv.HOME!, '.gitconfig'),
      `[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[commit]\n\tgpgSign = true\n[core]\n\thooksPath = ${hooks}\n`);
    const b = open(remote, { env: userEnv });
    const v = await b.write('text\n', null, 'menuctl apply: record for s');
    expect(await b.read()).toEqual({ text: 'text\n', version: v });
    expect(logOf(remote, '%an <%ae>')).toEqual(['Ada Lovelace <ada@example.com>']);
  });

  it('reports a refusal by the remote (a server hook) as an error naming the remote, not as a conflict', async () => {
    const remote = bareRemote();
    writeFileSync(join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\necho "branch menuctl-state is protected" >&2\nexit 1\n');
    chmodSync(join(remote, 'hooks', 'pre-receive'), 0o755);
    const err = await open(remote).write('text\n', null, 'm').catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(StateConflict);
    expect((err as Error).message).toContain(`git+file://${remote}#menuctl-state`);
    expect((err as Error).message).toContain('branch menuctl-state is protected');
    expect((err as Error).message).toMatch(/check that you may push to branch menuctl-state/);
  });

  it('names a missing remote and says what to do', async () => {
    const missing = join(tmp('menuctl-git-gone-'), 'nothing.git');
    await expect(open(missing).read()).rejects.toThrow(new RegExp(`^git\\+file://${missing}#menuctl-state: git fetch failed.*check that file://${missing} exists`));
  });

  it('never shows the password of an https remote, in shown or in errors', async () => {
    const b = openGitBackend('git+https://alice:s3cr3t-t0ken@127.0.0.1:9/acme/menus.git#state', { env, cwd: tmpdir(), gitTimeoutMs: 20_000 });
    opened.push(b);
    expect(b.shown).toBe('git+https://alice:***@127.0.0.1:9/acme/menus.git#state');
    const err = (await b.read().catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain(b.shown);
    expect(err.message).not.toContain('s3cr3t');
  });

  it('resolves a relative local remote against the caller\'s directory, not the scratch one', async () => {
    const remote = bareRemote();
    const b = openGitBackend(`git+../${basename(remote)}#menuctl-state`, { env, cwd: join(dirname(remote), 'somewhere') });
    opened.push(b);
    const v = await b.write('rel\n', null, 'm');
    expect(tipOf(remote)).toBe(v);
  });

  it('stops a git call that does not finish within its timeout instead of hanging', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => { sockets.push(s); }); // accepts, never answers
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const { port } = silent.address() as { port: number };
      const b = openGitBackend(`git+http://127.0.0.1:${port}/x.git`, { env, cwd: tmpdir(), gitTimeoutMs: 1000 });
      opened.push(b);
      await expect(b.read()).rejects.toThrow(/git fetch did not finish within 1 s and was stopped/);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('reads from a server that cannot serve a shallow fetch (git\'s dumb HTTP) by fetching the branch whole', async () => {
    const remote = bareRemote();
    const v = await open(remote).write('over dumb http\n', null, 'm');
    git(['--git-dir', remote, 'update-server-info']);
    const files = createHttpServer((req, res) => {
      try {
        res.end(readFileSync(join(remote, decodeURIComponent((req.url ?? '').split('?')[0]!).replace(/^\/x\.git/, ''))));
      } catch {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
    try {
      const { port } = files.address() as { port: number };
      const b = openGitBackend(`git+http://127.0.0.1:${port}/x.git`, { env, cwd: tmpdir() });
      opened.push(b);
      expect(await b.read()).toEqual({ text: 'over dumb http\n', version: v });
    } finally {
      files.close();
    }
  });

  // Issue 36.10: git's output was collected with a 64 MB maxBuffer. Highly compressible lines,
  // so that git's zlib and pack work stay quick; the size is what matters here.
  it('writes and reads back a record over 64 MB (slow: ~70 MB through git)', async () => {
    const remote = bareRemote();
    const line = '{"scope":"https://api.example.com org 62","address":"action[\\"K\\"]","id":"123456"}\n';
    const big = line.repeat(Math.ceil((70 * 1024 * 1024) / line.length));
    const b = open(remote);
    const v = await b.write(big, null, 'menuctl apply: a large record');
    const back = await open(remote).read();
    expect(back.version).toBe(v);
    expect(back.text?.length).toBe(big.length);
    expect(back.text === big).toBe(true); // not toEqual: a 70 MB diff would be its own problem
  }, 120_000);

  it('close() removes its scratch repository', async () => {
    const remote = bareRemote();
    const scratchRoot = tmp('menuctl-git-tmp-');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratchRoot; // os.tmpdir() reads it on every call
    try {
      const b = openGitBackend(`git+file://${remote}`, { env, cwd: tmpdir() });
      await b.read();
      expect(readdirSync(scratchRoot)).toHaveLength(1);
      await b.close();
      expect(readdirSync(scratchRoot)).toEqual([]);
      await expect(b.read()).rejects.toThrow(/closed/);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

describe('git backend: locks', () => {
  it('holds a scope against a second taker, whose LockHeld names the holder; other scopes are free', async () => {
    const remote = bareRemote();
    const [a, b] = [open(remote), open(remote)];
    const first = lockInfo(SCOPE, { command: 'state rm', host: 'laptop-7', run_url: 'https://github.com/acme/menus/actions/runs/1' });
    await a.lock(first, { timeoutMs: 0 });
    const err = await b.lock(lockInfo(SCOPE), { timeoutMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockHeld);
    expect((err as LockHeld).holder).toEqual(first);
    expect((err as LockHeld).message).toContain(first.id);
    const other = lockInfo('https://other.example.com org 1');
    await b.lock(other, { timeoutMs: 0 });
    expect((await a.locks()).sort((x, y) => x.id.localeCompare(y.id))).toEqual([first, other].sort((x, y) => x.id.localeCompare(y.id)));
    expect(git(['--git-dir', remote, 'ls-tree', '--name-only', '-r', 'menuctl-state']).split('\n').sort())
      .toEqual([lockFile(SCOPE), lockFile(other.scope)].sort());
    expect(lockFile(SCOPE)).toMatch(/^locks\/[0-9a-f]{16}\.json$/);
  });

  it('unlocks by id, returning what the lock was; an unknown id gives null; the history tells who', async () => {
    const remote = bareRemote();
    const a = open(remote);
    const info = lockInfo(SCOPE);
    await a.lock(info, { timeoutMs: 0 });
    expect(await open(remote).unlock('no-such-lock')).toBeNull();
    expect(await open(remote).unlock(info.id)).toEqual(info);
    expect(await a.locks()).toEqual([]);
    expect(await open(remote).unlock(info.id)).toBeNull();
    await open(remote).lock(lockInfo(SCOPE), { timeoutMs: 0 });
    expect(logOf(remote).slice(1)).toEqual([
      `unlock ${SCOPE} (lock id ${info.id}, taken by ada@ci-runner-1 running \`menuctl apply\` since ${info.started})`,
      `lock ${SCOPE} for menuctl apply by ada@ci-runner-1 (lock id ${info.id})`,
    ]);
  });

  it('lets exactly one of two racing lockers take a scope', async () => {
    const remote = bareRemote();
    const results = await Promise.allSettled([open(remote).lock(lockInfo(SCOPE), { timeoutMs: 0 }), open(remote).lock(lockInfo(SCOPE), { timeoutMs: 0 })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost?.reason).toBeInstanceOf(LockHeld);
    expect(await open(remote).locks()).toHaveLength(1);
  });

  it('retries a lock whose push was rejected because the branch moved, keeping the other change', async () => {
    const remote = bareRemote();
    const v0 = await open(remote).write('base\n', null, 'base');
    const rival = open(remote);
    let once = true;
    let rivalVersion = '';
    const b = open(remote, {
      beforePush: async () => {
        if (!once) return;
        once = false;
        rivalVersion = await rival.write('rival\n', v0, 'rival');
      },
    });
    const info = lockInfo(SCOPE);
    await b.lock(info, { timeoutMs: 0 });
    expect(await open(remote).locks()).toEqual([info]);
    const snap = await open(remote).read();
    expect(snap.text).toBe('rival\n');
    expect(logOf(remote, '%P').at(0)).toBe(rivalVersion);
  });

  it('waits up to the timeout, told once, and takes the lock when the holder releases it meanwhile', async () => {
    const remote = bareRemote();
    const [a, b] = [open(remote), open(remote)];
    const first = lockInfo(SCOPE);
    await a.lock(first, { timeoutMs: 0 });
    const told: LockInfo[] = [];
    let released: Promise<unknown> = Promise.resolve();
    const second = lockInfo(SCOPE, { who: 'grace' });
    await b.lock(second, {
      timeoutMs: 20_000,
      onWait: (holder) => {
        told.push(holder);
        released = a.unlock(first.id);
      },
    });
    await released;
    expect(told).toEqual([first]);
    expect(await open(remote).locks()).toEqual([second]);
  });

  // pollLock tells onWait only when time is left after the first try: a timeout that one slow
  // try (a loaded CI machine) could use up would make this test flaky.
  it('gives up with LockHeld when the holder keeps the lock past the timeout', async () => {
    const remote = bareRemote();
    const first = lockInfo(SCOPE);
    await open(remote).lock(first, { timeoutMs: 0 });
    const told: LockInfo[] = [];
    const err = await open(remote).lock(lockInfo(SCOPE), { timeoutMs: 1500, onWait: (h) => told.push(h) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockHeld);
    expect((err as LockHeld).holder).toEqual(first);
    expect(told).toEqual([first]);
  });

  it('refuses a lock file that is not a menuctl lock, naming it, rather than guessing a holder', async () => {
    const remote = bareRemote();
    const work = tmp('menuctl-git-work-');
    git(['init', '--quiet', '-b', 'menuctl-state', work]);
    mkdirSync(join(work, 'locks'));
    writeFileSync(join(work, lockFile(SCOPE)), 'not json\n');
    git(['add', '.'], { cwd: work });
    git(['-c', 'user.name=dev', '-c', 'user.email=dev@example.com', 'commit', '--quiet', '-m', 'hand-made'], { cwd: work });
    git(['push', '--quiet', remote, 'menuctl-state'], { cwd: work });
    await expect(open(remote).lock(lockInfo(SCOPE), { timeoutMs: 0 })).rejects.toThrow(`${lockFile(SCOPE)} on branch menuctl-state is not a menuctl lock`);
  });

  it('keeps the lock file through record writes made while holding it', async () => {
    const remote = bareRemote();
    const b = open(remote);
    const info = lockInfo(SCOPE);
    await b.lock(info, { timeoutMs: 0 });
    const { version } = await b.read();
    expect(version).not.toBeNull();
    const v = await b.write('record\n', version, `menuctl apply: record for ${SCOPE}`);
    expect(await b.read()).toEqual({ text: 'record\n', version: v });
    expect(await b.locks()).toEqual([info]);
    expect(await b.unlock(info.id)).toEqual(info);
    expect(await open(remote).read()).toMatchObject({ text: 'record\n' });
    expect(git(['--git-dir', remote, 'ls-tree', '--name-only', '-r', 'menuctl-state'])).toBe('menuctl.lock');
  });
});
