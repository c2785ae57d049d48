// A lock taken away from a running holder (issue 36.1): released by `state unlock --force`, or
// lost to a branch reset or deleted by a forced push. The holder's verify() and write(held) must
// end in LockLost, never in writing over the next holder's record or re-creating the branch.
// Against real bare repositories (file:// remotes), with a real live process as a holder.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockHolderAlive, LockLost, StateConflict } from '../../src/state/backend.js';
import type { LockInfo, StateBackend } from '../../src/state/backend.js';
import { openGitBackend } from '../../src/state/git.js';

const dirs: string[] = [];
const opened: StateBackend[] = [];
const children: { kill(): void }[] = [];
const tmp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

afterEach(async () => {
  for (const c of children.splice(0)) c.kill();
  for (const b of opened.splice(0)) await b.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const home = tmp('menuctl-git-home-');
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
const git = (args: string[]): string => execFileSync('git', args, { env, encoding: 'utf8' }).trim();

function bareRemote(): string {
  const d = tmp('menuctl-git-remote-');
  git(['init', '--bare', '--quiet', d]);
  return d;
}

function open(remote: string): StateBackend {
  const b = openGitBackend(`git+file://${remote}#menuctl-state`, { env, cwd: tmpdir(), pollIntervalMs: 20 });
  opened.push(b);
  return b;
}

const tipOf = (remote: string): string => git(['--git-dir', remote, 'rev-parse', 'refs/heads/menuctl-state']);

let nextId = 0;
const lockInfo = (scope: string, over: Partial<LockInfo> = {}): LockInfo => ({
  id: `lock-${++nextId}`, scope, who: 'ada', host: 'ci-runner-1', command: 'apply', started: '2026-11-27T10:00:00.000Z', ...over,
});

const SCOPE = 'https://api.example.com org 62';

/** A holder that has locked SCOPE and written the record once, and its record version. */
async function holding(remote: string): Promise<{ b: StateBackend; info: LockInfo; version: string }> {
  const b = open(remote);
  const info = lockInfo(SCOPE);
  await b.lock(info, { timeoutMs: 0 });
  const version = await b.write('holder 1\n', (await b.read()).version, 'holder writes', [info]);
  return { b, info, version };
}

describe('git backend: a lock taken away from its holder', () => {
  it('released by another run with force: the holder\'s verify and write get LockLost, and the new holder\'s record stays', async () => {
    const remote = bareRemote();
    const { b, info, version } = await holding(remote);
    await b.verify(info);
    expect(await open(remote).unlock(info.id, { force: true })).toEqual(info);
    await expect(b.verify(info)).rejects.toThrow(LockLost);
    await expect(b.verify(info)).rejects.toThrow(/its lock file is no longer on branch menuctl-state/);
    // The next run takes the scope and writes; the first one's write must not land.
    const next = open(remote);
    const nextInfo = lockInfo(SCOPE, { who: 'grace' });
    await next.lock(nextInfo, { timeoutMs: 0 });
    const nextVersion = await next.write('next holder\n', (await next.read()).version, 'next writes', [nextInfo]);
    // At its stale version a conflict (the caller re-reads), then at the current one LockLost
    // naming the new holder.
    await expect(b.write('holder 2\n', version, 'holder writes again', [info])).rejects.toBeInstanceOf(StateConflict);
    const current = (await b.read()).version;
    const lost = await b.write('holder 2\n', current, 'holder writes again', [info]).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(LockLost);
    expect((lost as LockLost).message).toContain(`it is now held by grace@ci-runner-1`);
    await expect(b.verify(info)).rejects.toThrow(/it is now held by grace@ci-runner-1/);
    expect(tipOf(remote)).toBe(nextVersion);
    expect(await open(remote).read()).toMatchObject({ text: 'next holder\n' });
  });

  it('on a write made on the holder\'s own last push, without a fetch, a released lock still ends in LockLost', async () => {
    const remote = bareRemote();
    const { b, info, version } = await holding(remote);
    await open(remote).unlock(info.id, { force: true });
    const tip = tipOf(remote);
    // The holder writes straight on its last push: the push is refused (the branch moved), the
    // caller re-reads (RecordStore does), and the write at the current version is LockLost.
    await expect(b.write('holder 2\n', version, 'm', [info])).rejects.toThrow(/written by someone else/);
    const lost = await b.write('holder 2\n', (await b.read()).version, 'm', [info]).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(LockLost);
    expect(tipOf(remote)).toBe(tip);
  });

  it('the branch reset by a forced push to a commit before the lock: LockLost, and the branch is not rebuilt on the old commit', async () => {
    const remote = bareRemote();
    const before = await open(remote).write('before the lock\n', null, 'first');
    const { b, info, version } = await holding(remote);
    git(['--git-dir', remote, 'update-ref', 'refs/heads/menuctl-state', before]); // what `git push --force` of it does
    await expect(b.verify(info)).rejects.toThrow(LockLost);
    // On its own last push (no fetch): the compare-and-swap refuses it, though it would be a fast-forward.
    await expect(b.write('holder 2\n', version, 'm', [info])).rejects.toThrow(/written by someone else/);
    expect(tipOf(remote)).toBe(before);
    const lost = await b.write('holder 2\n', (await b.read()).version, 'm', [info]).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(LockLost);
    expect(tipOf(remote)).toBe(before);
    expect(await open(remote).read()).toMatchObject({ text: 'before the lock\n' });
  });

  it('the branch deleted: verify and write get LockLost naming it, and the branch is not created again', async () => {
    const remote = bareRemote();
    const { b, info, version } = await holding(remote);
    git(['--git-dir', remote, 'update-ref', '-d', 'refs/heads/menuctl-state']);
    await expect(b.verify(info)).rejects.toThrow(/branch menuctl-state no longer exists/);
    await expect(b.write('holder 2\n', version, 'm', [info])).rejects.toThrow(/written by someone else/);
    await expect(b.write('holder 2\n', null, 'm', [info])).rejects.toThrow(LockLost);
    expect(git(['--git-dir', remote, 'for-each-ref'])).toBe('');
  });

  it('a branch reset to a commit that still holds the lock keeps it: the holder re-reads and writes on', async () => {
    const remote = bareRemote();
    const { b, info, version } = await holding(remote);
    const second = await b.write('holder 2\n', version, 'm', [info]);
    git(['--git-dir', remote, 'update-ref', 'refs/heads/menuctl-state', version]);
    await b.verify(info);
    await expect(b.write('holder 3\n', second, 'm', [info])).rejects.toThrow(/written by someone else/);
    const third = await b.write('holder 3\n', (await b.read()).version, 'm', [info]);
    expect(tipOf(remote)).toBe(third);
  });

  it('verify asks the remote with one ls-remote while the branch is where the holder left it, and fetches only when it moved', async () => {
    const remote = bareRemote();
    // GIT_TRACE logs every git command the backend runs: what a verify costs, counted.
    const trace = join(tmp('menuctl-git-trace-'), 'trace');
    const b = openGitBackend(`git+file://${remote}#menuctl-state`, { env: { ...env, GIT_TRACE: trace }, cwd: tmpdir() });
    opened.push(b);
    const info = lockInfo(SCOPE);
    await b.lock(info, { timeoutMs: 0 });
    await b.write('holder\n', (await b.read()).version, 'm', [info]);
    const calls = (() => {
      let seen = 0;
      return () => {
        const lines = readFileSync(trace, 'utf8').split('\n');
        const fresh = lines.slice(seen);
        seen = lines.length - 1; // the text after the last newline is not a line yet
        const count = (cmd: string) => fresh.filter((l) => l.includes(`trace: built-in: git ${cmd} `)).length;
        return { lsRemote: count('ls-remote'), fetch: count('fetch') };
      };
    })();
    calls();
    await b.verify(info);
    await b.verify(info);
    expect(calls()).toEqual({ lsRemote: 2, fetch: 0 });
    await open(remote).write('another scope\'s write\n', tipOf(remote), 'other');
    await b.verify(info); // the lock is still in the new tip
    expect(calls()).toEqual({ lsRemote: 1, fetch: 1 });
    await b.verify(info);
    expect(calls()).toEqual({ lsRemote: 1, fetch: 0 });
    await open(remote).unlock(info.id, { force: true });
    await expect(b.verify(info)).rejects.toThrow(LockLost);
  });
});

describe('git backend: a record that is not a file', () => {
  it('menuctl.lock replaced by a directory on the branch is an error naming it, never an empty record', async () => {
    const remote = bareRemote();
    const b = open(remote);
    await b.write('# record\n', null, 'first');
    // Someone replaces the record with a directory of the same name, by hand.
    const work = tmp('menuctl-git-work-');
    git(['clone', '--quiet', '--branch', 'menuctl-state', remote, work]);
    const inWork = (args: string[]) => execFileSync('git', ['-C', work, '-c', 'user.name=x', '-c', 'user.email=x@x', ...args], { env, encoding: 'utf8' });
    rmSync(join(work, 'menuctl.lock'));
    mkdirSync(join(work, 'menuctl.lock'));
    writeFileSync(join(work, 'menuctl.lock', 'x'), 'x');
    inWork(['add', '-A']);
    inWork(['commit', '--quiet', '-m', 'replace']);
    inWork(['push', '--quiet', 'origin', 'menuctl-state']);
    await expect(open(remote).read()).rejects.toThrow(/menuctl\.lock on branch menuctl-state is not a regular file .*restore it from the branch's history/);
  });
});

describe('git backend: unlock of a live holder', () => {
  /** A real process that stays alive: the holder's pid on this host. */
  function liveProcess(): number {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push({ kill: () => child.kill('SIGKILL') });
    return child.pid!;
  }

  it('refuses a lock whose holder runs on this host with LockHolderAlive, naming it; with force it is released', async () => {
    const remote = bareRemote();
    const pid = liveProcess();
    const info = lockInfo(SCOPE, { host: hostname(), pid });
    await open(remote).lock(info, { timeoutMs: 0 });
    const err = await open(remote).unlock(info.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockHolderAlive);
    expect((err as Error).message).toContain(`process ${pid} on this host`);
    expect((err as Error).message).toMatch(/pass --force/);
    expect(await open(remote).locks()).toEqual([info]);
    expect(await open(remote).unlock(info.id, { force: true })).toEqual(info);
    expect(await open(remote).locks()).toEqual([]);
  });

  it('releases without force a holder whose process is gone, or one on another host', async () => {
    const remote = bareRemote();
    const gone = spawn('true');
    await new Promise((done) => gone.once('exit', done));
    const dead = lockInfo(SCOPE, { host: hostname(), pid: gone.pid! });
    const elsewhere = lockInfo('other scope', { host: 'another-host', pid: liveProcess() });
    await open(remote).lock(dead, { timeoutMs: 0 });
    await open(remote).lock(elsewhere, { timeoutMs: 0 });
    expect(await open(remote).unlock(dead.id)).toEqual(dead);
    expect(await open(remote).unlock(elsewhere.id)).toEqual(elsewhere);
  });

  it('never refuses the instance\'s own lock, though its process is alive', async () => {
    const remote = bareRemote();
    const b = open(remote);
    const info = lockInfo(SCOPE, { host: hostname(), pid: liveProcess() });
    await b.lock(info, { timeoutMs: 0 });
    expect(await b.unlock(info.id)).toEqual(info);
    expect(await open(remote).locks()).toEqual([]);
  });
});
