// The git backend of the applied-state record (CONTRACT.md "State", `git+URL#BRANCH`).
//
// The branch holds `menuctl.lock` (the record) and `locks/<sha256(scope)[0..16]>.json` (one
// LockInfo per held lock). Every change is one commit on the tip it was based on, pushed as a
// fast-forward and never forced: once anyone has pushed a commit since our fetch, the remote
// refuses ours, so the push is the compare-and-swap that makes writes safe and locks a mutex.
// (A branch deleted or rewound meanwhile by a forced push of someone else's is not detected:
// ours then lands with the history it was based on.) The branch's history is the audit trail.
//
// Each backend instance works in its own scratch bare repository under os.tmpdir() (removed by
// close()) with plumbing only (src/state/git-tree.ts).

import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RECORD_FILE } from '../record/record.js';
import { describeHolder, LockHeld, LockLost, StateConflict } from './backend.js';
import type { LockInfo, LockOptions, Snapshot, StateBackend } from './backend.js';
import { GitRunner, gitEnvironment, HINT_LOCAL } from './git-exec.js';
import { commitChange, listTree } from './git-tree.js';
import { maskUrls, parseGitStateUrl, scrubSecrets, urlSecrets } from './git-url.js';

export { parseGitStateUrl } from './git-url.js';

export interface GitBackendOptions {
  env: NodeJS.ProcessEnv;
  /** Where a relative local remote path is resolved from. */
  cwd: string;
  /** How often a waiting lock() looks again (default 1 s). */
  pollIntervalMs?: number;
  /** How long one git call may take (default 120 s). */
  gitTimeoutMs?: number;
  /** Tests only: runs before every push, to let another writer get in first. */
  beforePush?: () => Promise<void>;
}

const LOCK_DIR = 'locks';
/** A lock() or unlock() whose push keeps being rejected gives up after this many tries. */
const MAX_PUSH_TRIES = 20;

/** The lock file of a scope: hashed, since a scope (an API URL) is no file name. */
export function lockFile(scope: string): string {
  return `${LOCK_DIR}/${createHash('sha256').update(scope).digest('hex').slice(0, 16)}.json`;
}

export function openGitBackend(url: string, options: GitBackendOptions): StateBackend {
  return new GitBackend(url, options);
}

/** The branch tip as fetched: its commit (null: no branch) and its files (path -> blob id). */
interface Tip {
  sha: string | null;
  files: Map<string, string>;
}

class GitBackend implements StateBackend {
  readonly shown: string;
  private readonly remote: string;
  private readonly branch: string;
  private readonly track: string;
  private readonly secrets: string[];
  /** What to do when the remote cannot be read or written: names it, without a secret. */
  private readonly remoteHint: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private ready: Promise<GitRunner> | null = null;
  private dir: string | null = null;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The commit this process last pushed to the branch (the tip, unless someone pushed since). */
  private lastPushed: string | null = null;

  constructor(url: string, private readonly o: GitBackendOptions) {
    const parsed = parseGitStateUrl(url);
    this.shown = parsed.shown;
    this.branch = parsed.branch;
    this.remote = parsed.isPath && !isAbsolute(parsed.remote) ? resolve(o.cwd, parsed.remote) : parsed.remote;
    this.track = `refs/remotes/origin/${parsed.branch}`;
    this.secrets = urlSecrets(parsed.remote);
    const shownRemote = maskUrls(parsed.remote);
    this.remoteHint = `check that ${shownRemote} exists and that your own git can reach it (git ls-remote ${shownRemote}), with credentials from a credential helper, an SSH agent or GIT_ASKPASS (menuctl never prompts)`;
    this.env = gitEnvironment(o.env);
    this.pollMs = o.pollIntervalMs ?? 1000;
    this.timeoutMs = o.gitTimeoutMs ?? 120_000;
  }

  read(): Promise<Snapshot> {
    return this.serial(async (git) => {
      const tip = await this.fetchTip(git);
      if (tip.sha === null) return { text: null, version: null };
      const oid = tip.files.get(RECORD_FILE);
      return { text: oid ? await git.ok(['cat-file', 'blob', oid], HINT_LOCAL) : null, version: tip.sha };
    });
  }

  write(text: string, expected: string | null, message: string): Promise<string> {
    return this.serial(async (git) => {
      // Writing on top of our own last push needs no fetch: if anyone pushed since, the
      // fast-forward push is refused and push() fetches to tell (apply writes the record often;
      // a fetch per write made the git backend several times slower than the file).
      const base = expected !== null && expected === this.lastPushed ? expected : (await this.fetchTip(git)).sha;
      if (base !== expected) throw new StateConflict(this.shown);
      const commit = await commitChange(git, base, RECORD_FILE, text, message);
      if (!(await this.push(git, commit, base))) throw new StateConflict(this.shown);
      return commit;
    });
  }

  async lock(info: LockInfo, options: LockOptions): Promise<void> {
    const deadline = Date.now() + Math.max(0, options.timeoutMs);
    let told = false;
    for (;;) {
      const holder = await this.serial((git) => this.tryLock(git, info));
      if (holder === null) return;
      // Asked to wait: told so once, even when the first try alone used up the time.
      if (!told && options.timeoutMs > 0) {
        told = true;
        options.onWait?.(holder);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new LockHeld(holder, this.shown);
      await sleep(Math.min(this.pollMs, left));
    }
  }

  unlock(id: string, _options?: { force?: boolean }): Promise<LockInfo | null> {
    return this.serial(async (git) => {
      for (let i = 0; i < MAX_PUSH_TRIES; i++) {
        const tip = await this.fetchTip(git);
        const found = (await this.readLocks(git, tip)).find((l) => l.info.id === id);
        if (!found) return null;
        const { info, path } = found;
        const message = `unlock ${info.scope} (lock id ${info.id}, taken by ${describeHolder(info)})`;
        const commit = await commitChange(git, tip.sha, path, null, message);
        if (await this.push(git, commit, tip.sha)) return info;
      }
      throw this.gaveUp('release the lock');
    });
  }

  verify(lock: LockInfo): Promise<void> {
    return this.serial(async (git) => {
      const held = (await this.readLocks(git, await this.fetchTip(git))).find((l) => l.path === lockFile(lock.scope));
      if (held?.info.id !== lock.id) throw new LockLost(lock, this.shown, held ? 'another run took it' : 'it was released, or the branch was reset');
    });
  }

  locks(): Promise<LockInfo[]> {
    return this.serial(async (git) => (await this.readLocks(git, await this.fetchTip(git))).map((l) => l.info));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  /** One lock attempt: null once taken (or already ours), else who holds it. */
  private async tryLock(git: GitRunner, info: LockInfo): Promise<LockInfo | null> {
    const path = lockFile(info.scope);
    for (let i = 0; i < MAX_PUSH_TRIES; i++) {
      const tip = await this.fetchTip(git);
      const held = (await this.readLocks(git, tip)).find((l) => l.path === path);
      if (held) return held.info.id === info.id ? null : held.info;
      const message = `lock ${info.scope} for menuctl ${info.command} by ${info.who}@${info.host} (lock id ${info.id})` +
        (info.run_url ? `\n\n${info.run_url}\n` : '');
      const commit = await commitChange(git, tip.sha, path, `${JSON.stringify(info, null, 2)}\n`, message);
      // Rejected: the branch moved since the fetch (a record write, or a rival's lock): look again.
      if (await this.push(git, commit, tip.sha)) return null;
    }
    throw this.gaveUp('take the lock');
  }

  private gaveUp(what: string): Error {
    return new Error(`${this.shown}: could not ${what}: the branch changed under ${MAX_PUSH_TRIES} pushes in a row; try again when fewer runs write to it`);
  }

  /** Runs `fn` alone: git calls of one instance share one scratch repository and its refs. */
  private serial<T>(fn: (git: GitRunner) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => fn(await this.repo()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private repo(): Promise<GitRunner> {
    if (this.closed) return Promise.reject(new Error(`${this.shown}: the state backend was closed`));
    this.ready ??= this.init();
    return this.ready;
  }

  private async init(): Promise<GitRunner> {
    const dir = await mkdtemp(join(tmpdir(), 'menuctl-git-state-'));
    this.dir = dir;
    const scrub = (text: string) => scrubSecrets(text, this.secrets).split(dir).join('<scratch>');
    // Settings from the user's own git config that would break a commit or push made for them:
    // signing (no key on a CI runner, a pinentry prompt on a laptop), hooks (a repository's
    // pre-push checks are not for this branch), background maintenance in a directory about to go.
    const config = ['-c', 'commit.gpgSign=false', '-c', 'push.gpgSign=false', '-c', 'core.hooksPath=/dev/null',
      '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'init.defaultBranch=main'];
    const base = { env: this.env, timeoutMs: this.timeoutMs, shown: this.shown, scrub };
    await new GitRunner({ ...base, gitDir: null, config }).ok(['init', '--bare', '--quiet', dir], HINT_LOCAL);
    const probe = new GitRunner({ ...base, gitDir: dir, config });
    // The remote goes into the scratch config rather than every command line, where a token in
    // the URL would show in `ps` to every user of the machine; mkdtemp made the directory 0700.
    await appendFile(join(dir, 'config'), `[remote "origin"]\n\turl = ${configQuote(this.remote)}\n`);
    // A fresh CI runner has no identity and commit-tree would refuse; the user's own wins when set
    // (and GIT_AUTHOR_NAME and the like win over both, as git has it).
    const who = await probe.run(['config', '--get-regexp', '^user\\.(name|email)$']);
    const known = new Set(who.stdout.split('\n').map((l) => l.split(' ')[0]!.toLowerCase()));
    const identity = [
      ...(known.has('user.name') ? [] : ['-c', 'user.name=menuctl']),
      ...(known.has('user.email') || this.env.EMAIL ? [] : ['-c', 'user.email=menuctl@localhost']),
    ];
    return new GitRunner({ ...base, gitDir: dir, config: [...config, ...identity] });
  }

  /**
   * Fetches the branch tip. A failed fetch is a missing branch only when ls-remote says so (its
   * documented exit code 2), never by reading git's translated messages.
   */
  private async fetchTip(git: GitRunner): Promise<Tip> {
    // Only the tip is needed; the history stays on the remote.
    const shallow = ['fetch', '--no-tags', '--depth=1', 'origin', `+refs/heads/${this.branch}:${this.track}`];
    let fetched = await git.run(shallow);
    if (fetched.code !== 0) {
      const listed = await git.run(['ls-remote', '--exit-code', 'origin', `refs/heads/${this.branch}`]);
      if (listed.code === 2) {
        await git.run(['update-ref', '-d', this.track]);
        return { sha: null, files: new Map() };
      }
      // The branch is there: created between the two calls, or a server that cannot serve a
      // shallow fetch (git's dumb HTTP): fetch it whole.
      if (listed.code === 0) fetched = await git.run(shallow.filter((a) => a !== '--depth=1'));
      if (fetched.code !== 0) throw git.failure(shallow, fetched, this.remoteHint);
    }
    const sha = (await git.ok(['rev-parse', '--verify', `${this.track}^{commit}`], HINT_LOCAL)).trim();
    const files = new Map<string, string>();
    for (const e of await listTree(git, sha, true)) {
      if (e.type === 'blob') files.set(e.name, e.oid);
    }
    return { sha, files };
  }

  private async readLocks(git: GitRunner, tip: Tip): Promise<{ path: string; info: LockInfo }[]> {
    const out: { path: string; info: LockInfo }[] = [];
    for (const [path, oid] of [...tip.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!path.startsWith(`${LOCK_DIR}/`) || !path.endsWith('.json')) continue;
      const info = parseLock(await git.ok(['cat-file', 'blob', oid], HINT_LOCAL));
      if (!info) {
        throw new Error(`${this.shown}: ${path} on branch ${this.branch} is not a menuctl lock; if no menuctl run holds it, delete it from the branch with git`);
      }
      out.push({ path, info });
    }
    return out;
  }

  /**
   * Pushes `commit` (whose parent is `base`) as a fast-forward, never forced. false when the
   * branch is no longer at `base`: someone else pushed first.
   */
  private async push(git: GitRunner, commit: string, base: string | null): Promise<boolean> {
    await this.o.beforePush?.();
    const args = ['push', '--quiet', 'origin', `${commit}:refs/heads/${this.branch}`];
    const pushed = await git.run(args);
    if (pushed.code === 0) {
      this.lastPushed = commit;
      return true;
    }
    // Whether the branch moved, not git's message, tells a lost race from a refusal (no right
    // to push, a protected branch, a server hook), which must not be retried as a conflict.
    let now: string | null;
    try {
      now = (await this.fetchTip(git)).sha;
    } catch {
      throw git.failure(args, pushed, this.remoteHint);
    }
    if (now === commit) {
      // The push landed; only its answer was lost.
      this.lastPushed = commit;
      return true;
    }
    if (now !== base) return false;
    // A server can refuse a push with "cannot lock ref" while a rival's update of the same
    // branch is still under way: look once more before calling it a refusal.
    await sleep(250);
    now = (await this.fetchTip(git)).sha;
    if (now === commit) {
      this.lastPushed = commit;
      return true;
    }
    if (now !== base) return false;
    throw git.failure(args, pushed, `check that you may push to branch ${this.branch} of the remote (a protected branch or a server hook can refuse it)`);
  }
}

function parseLock(text: string): LockInfo | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const strings = ['id', 'scope', 'who', 'host', 'command', 'started'].every((k) => typeof o[k] === 'string');
  return strings ? (o as unknown as LockInfo) : null;
}

/** A value for git's config file: quoted, with `\` and `"` escaped (no newline reaches here). */
function configQuote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
