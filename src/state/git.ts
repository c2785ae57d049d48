// The git backend of the applied-state record (CONTRACT.md "State", `git+URL#BRANCH`).
//
// The branch holds `menuctl.lock` (the record) and `locks/<sha256(scope)[0..16]>.json` (one
// LockInfo per held lock). Every change is one commit on the tip it was based on, pushed with
// `--force-with-lease=BRANCH:BASE`: the remote takes it only while the branch is still at BASE
// (checked under the remote's ref lock), and the commit's parent is BASE, so the push is a
// fast-forward and the compare-and-swap that makes writes safe and locks a mutex. A branch that
// someone else moved, rewound or deleted meanwhile refuses it, instead of taking our commit
// with the history it was based on. The branch's history is the audit trail.
//
// A record write also checks that each lock its writer holds is in BASE with the writer's id:
// with the compare-and-swap, the lock is then the writer's at the moment the write lands, and a
// run whose lock was released (`state unlock --force`) or lost to a reset gets LockLost.
//
// Each backend instance works in its own scratch bare repository under os.tmpdir()
// (src/state/git-scratch.ts) with plumbing only (src/state/git-tree.ts).

import { createHash } from 'node:crypto';
import { appendFile, rm } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RECORD_FILE } from '../record/record.js';
import { describeHolder, LockHeld, LockHolderAlive, LockLost, StateConflict } from './backend.js';
import type { LockInfo, LockOptions, Snapshot, StateBackend } from './backend.js';
import { credentialConfig, GitRunner, gitEnvironment, HINT_LOCAL } from './git-exec.js';
import { makeScratchDir } from './git-scratch.js';
import { commitChange, listTree, readBlob } from './git-tree.js';
import { maskUrls, parseGitStateUrl, scrubSecrets, splitCredentials, urlSecrets } from './git-url.js';
import type { RemoteCredentials } from './git-url.js';
import { fullJitter, pollLock } from './poll.js';
import { holderAlive } from './process.js';

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
/**
 * A push refused because the branch moved (other runs writing to it) is tried again, with
 * backoff, for the lock timeout and at least this long: a busy branch is no reason to fail.
 */
const MIN_CONTENTION_MS = 60_000;
/** Full-jitter exponential backoff between refused pushes (as src/api/retry.ts). */
const BACKOFF_BASE_MS = 50;
const BACKOFF_CAP_MS = 2_000;
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
  /**
   * A verify here is an ls-remote, a git process: one per API write made a 1,000 x 5 apply 1.8x
   * slower (20 ms API latency) and CPU-bound. An answer begun within half a second serves the
   * writes asked meanwhile, so a run stops within that of its lock being taken; a rival needs
   * longer than that to push its lock, read the record and the API, and plan.
   */
  readonly verifyWindowMs = 500;
  /** The remote as git is given it: without the credentials its URL may carry. */
  private readonly remote: string;
  private readonly credentials: RemoteCredentials | null;
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
  /** Commits of the branch in the scratch repository (fetched or pushed): a write on one needs no fetch. */
  private readonly known = new Set<string>();
  /** What a lock file holds at a commit (`sha:path`), once looked at: commits never change. */
  private readonly lockAtCache = new Map<string, LockInfo | null>();
  /** The locks this instance took, with the lock timeout they were taken with. */
  private readonly mine = new Map<string, { info: LockInfo; timeoutMs: number }>();
  /** Record writes refused in a row because the branch moved: the next refusal waits longer. */

  constructor(url: string, private readonly o: GitBackendOptions) {
    const parsed = parseGitStateUrl(url);
    this.shown = parsed.shown;
    this.branch = parsed.branch;
    const { url: bare, credentials } = splitCredentials(parsed.remote);
    this.remote = parsed.isPath && !isAbsolute(bare) ? resolve(o.cwd, bare) : bare;
    this.credentials = credentials;
    this.track = `refs/remotes/origin/${parsed.branch}`;
    this.secrets = urlSecrets(parsed.remote);
    const shownRemote = maskUrls(parsed.remote);
    this.remoteHint = credentials
      ? `check that ${shownRemote} exists and that the user name and password (or token) in the state URL are right and may read and push to it`
      : `check that ${shownRemote} exists and that your own git can reach it (git ls-remote ${shownRemote}), with credentials from a credential helper, an SSH agent or GIT_ASKPASS (menuctl never prompts)`;
    this.env = gitEnvironment(o.env, credentials);
    this.pollMs = o.pollIntervalMs ?? 1000;
    this.timeoutMs = o.gitTimeoutMs ?? 120_000;
  }

  read(): Promise<Snapshot> {
    return this.serial(async (git) => {
      const tip = await this.fetchTip(git);
      if (tip.sha === null) return { text: null, version: null };
      const oid = tip.files.get(RECORD_FILE);
      return { text: oid ? await readBlob(git, oid) : null, version: tip.sha };
    });
  }

  write(text: string, expected: string | null, message: string, held: readonly LockInfo[] = []): Promise<string> {
    return this.serial(async (git) => {
      // A version this instance fetched or pushed is here already: the write needs no fetch, as
      // the push is refused when the branch is anywhere else now (apply writes the record often;
      // a fetch per write made the git backend several times slower than the file).
      if (expected === null || !this.known.has(expected)) {
        if ((await this.fetchSha(git)) !== expected) throw new StateConflict(this.shown);
      }
      for (const lock of held) {
        const at = await this.lockAt(git, expected, lockFile(lock.scope));
        if (at?.id === lock.id) continue;
        // Not ours in `expected`: a version older than our lock (re-read), or the lock is gone.
        const now = await this.remoteTip(git);
        if (now !== expected) throw new StateConflict(this.shown);
        throw this.lost(lock, now, at);
      }
      const commit = await commitChange(git, expected, RECORD_FILE, text, message);
      // The record changed, no lock file did: the next write on this commit needs no look.
      for (const lock of held) this.lockAtCache.set(`${commit}:${lockFile(lock.scope)}`, lock);
      // Refused: the caller (store.ts save) waits its backoff, re-reads and tries again; waiting
      // here too, inside serial(), would hold up verify() and so every API write.
      if (!(await this.push(git, commit, expected))) throw new StateConflict(this.shown);
      return commit;
    });
  }

  async lock(info: LockInfo, options: LockOptions): Promise<void> {
    const deadline = Date.now() + Math.max(0, options.timeoutMs);
    await pollLock(
      { ...options, pollMs: this.pollMs },
      () => this.serial((git) => this.tryLock(git, info, Math.max(deadline, Date.now() + MIN_CONTENTION_MS))),
      (holder) => new LockHeld(holder, this.shown),
    );
    this.mine.set(info.id, { info, timeoutMs: options.timeoutMs });
  }

  unlock(id: string, options: { force?: boolean } = {}): Promise<LockInfo | null> {
    return this.serial(async (git) => {
      const mine = this.mine.get(id);
      const until = Date.now() + Math.max(MIN_CONTENTION_MS, mine?.timeoutMs ?? 0);
      for (let retry = 0; ; retry++) {
        const tip = await this.fetchTip(git);
        // Our own is looked up by its scope: a damaged lock file of another scope is no reason
        // to keep ours.
        const found = mine
          ? await this.holderIn(git, tip, lockFile(mine.info.scope)).then((info) => (info?.id === id ? { info, path: lockFile(info.scope) } : undefined))
          : (await this.readLocks(git, tip)).find((l) => l.info.id === id);
        if (!found) {
          this.mine.delete(id);
          return null;
        }
        const { info, path } = found;
        if (!mine && !options.force && holderAlive(info)) {
          throw new LockHolderAlive(info, this.shown, `${this.shown}: lock ${id} on ${info.scope} is held by a run that is still running: ${describeHolder(info)}, process ${info.pid} on this host. `
            + 'Wait for it to finish; to release it anyway (that run then stops at its next write), pass --force');
        }
        const message = `unlock ${info.scope} (lock id ${info.id}, taken by ${describeHolder(info)})`;
        const commit = await commitChange(git, tip.sha, path, null, message);
        if (await this.push(git, commit, tip.sha)) {
          this.mine.delete(id);
          return info;
        }
        await this.contended(retry, until, 'release the lock');
      }
    });
  }

  /**
   * One ls-remote when the branch is where this instance last saw it (its own last push, or a
   * tip it fetched): that commit is here and tells whose the lock is. A fetch only when the
   * branch moved (another scope's run wrote).
   */
  verify(lock: LockInfo): Promise<void> {
    return this.serial(async (git) => {
      const path = lockFile(lock.scope);
      let tip = await this.remoteTip(git);
      if (tip !== null && !this.known.has(tip)) tip = await this.fetchSha(git);
      const at = await this.lockAt(git, tip, path);
      if (at?.id !== lock.id) throw this.lost(lock, tip, at);
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

  /**
   * One lock attempt: null once taken (or already ours), else who holds it. A push refused
   * because the branch moved (a record write, another scope's lock) is tried again after a
   * backoff, until `until`.
   */
  private async tryLock(git: GitRunner, info: LockInfo, until: number): Promise<LockInfo | null> {
    const path = lockFile(info.scope);
    for (let retry = 0; ; retry++) {
      const tip = await this.fetchTip(git);
      const held = await this.holderIn(git, tip, path);
      if (held) return held.id === info.id ? null : held;
      const message = `lock ${info.scope} for menuctl ${info.command} by ${info.who}@${info.host} (lock id ${info.id})` +
        (info.run_url ? `\n\n${info.run_url}\n` : '');
      const commit = await commitChange(git, tip.sha, path, `${JSON.stringify(info, null, 2)}\n`, message);
      this.lockAtCache.set(`${commit}:${path}`, info);
      if (await this.push(git, commit, tip.sha)) return null;
      await this.contended(retry, until, 'take the lock');
    }
  }

  /** Waits before retry `retry + 1` of a refused push, or gives up when that would pass `until`. */
  private async contended(retry: number, until: number, what: string): Promise<void> {
    const delay = backoff(retry);
    if (Date.now() + delay > until) {
      throw new Error(`${this.shown}: could not ${what}: the branch kept changing under it (${retry + 1} pushes refused as other runs wrote first); try again, or give a longer --lock-timeout`);
    }
    await sleep(delay);
  }

  private lost(lock: LockInfo, tip: string | null, at: LockInfo | null): LockLost {
    const why = tip === null
      ? `branch ${this.branch} no longer exists (deleted, or reset by a forced push)`
      : at === null
        ? `its lock file is no longer on branch ${this.branch}: released (\`menuctl state unlock --force\`), or the branch was reset by a forced push`
        : `it is now held by ${describeHolder(at)} (lock id ${at.id})`;
    return new LockLost(lock, this.shown, why);
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
    const dir = await makeScratchDir();
    this.dir = dir;
    const scrub = (text: string) => scrubSecrets(text, this.secrets).split(dir).join('<scratch>');
    // Settings from the user's own git config that would break a commit or push made for them:
    // signing (no key on a CI runner, a pinentry prompt on a laptop), hooks (a repository's
    // pre-push checks are not for this branch), background maintenance in a directory about to go.
    const config = ['-c', 'commit.gpgSign=false', '-c', 'push.gpgSign=false', '-c', 'core.hooksPath=/dev/null',
      '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'init.defaultBranch=main', ...credentialConfig(this.remote, this.credentials)];
    const base = { env: this.env, timeoutMs: this.timeoutMs, shown: this.shown, scrub };
    await new GitRunner({ ...base, gitDir: null, config }).ok(['init', '--bare', '--quiet', dir], HINT_LOCAL);
    const probe = new GitRunner({ ...base, gitDir: dir, config });
    // The remote (without credentials) goes into the scratch config rather than every command line.
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

  /** The branch's tip on the remote now (null: no branch), from one ls-remote. */
  private async remoteTip(git: GitRunner): Promise<string | null> {
    const ref = `refs/heads/${this.branch}`;
    const args = ['ls-remote', '--exit-code', 'origin', ref];
    const listed = await git.run(args);
    if (listed.code === 2) return null;
    if (listed.code !== 0) throw git.failure(args, listed, this.remoteHint);
    const line = listed.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`));
    return line ? line.slice(0, line.indexOf('\t')) : null;
  }

  /**
   * Fetches the branch tip and returns its commit. A failed fetch is a missing branch only when
   * ls-remote says so (its documented exit code 2), never by reading git's translated messages.
   */
  private async fetchSha(git: GitRunner): Promise<string | null> {
    // Only the tip is needed; the history stays on the remote.
    const shallow = ['fetch', '--no-tags', '--depth=1', 'origin', `+refs/heads/${this.branch}:${this.track}`];
    let fetched = await git.run(shallow);
    if (fetched.code !== 0) {
      const listed = await git.run(['ls-remote', '--exit-code', 'origin', `refs/heads/${this.branch}`]);
      if (listed.code === 2) {
        await git.run(['update-ref', '-d', this.track]);
        return null;
      }
      // The branch is there: created between the two calls, or a server that cannot serve a
      // shallow fetch (git's dumb HTTP): fetch it whole.
      if (listed.code === 0) fetched = await git.run(shallow.filter((a) => a !== '--depth=1'));
      if (fetched.code !== 0) throw git.failure(shallow, fetched, this.remoteHint);
    }
    const sha = (await git.ok(['rev-parse', '--verify', `${this.track}^{commit}`], HINT_LOCAL)).trim();
    this.known.add(sha);
    return sha;
  }

  private async fetchTip(git: GitRunner): Promise<Tip> {
    const sha = await this.fetchSha(git);
    const files = new Map<string, string>();
    if (sha === null) return { sha, files };
    for (const e of await listTree(git, sha, true)) {
      // The record must be a plain file: a directory, link or submodule in its place is a record
      // replaced by something else, never an empty one (issue 36 item 4: read as empty, the plan
      // made every app again).
      if (e.name === RECORD_FILE ? e.type !== 'blob' || e.mode === '120000' : e.name.startsWith(`${RECORD_FILE}/`)) {
        throw new Error(`${this.shown}: ${RECORD_FILE} on branch ${this.branch} is not a regular file (a directory, a link or a submodule), so the record cannot be read; restore it from the branch's history (git log -- ${RECORD_FILE}) and push that`);
      }
      if (e.type === 'blob') files.set(e.name, e.oid);
    }
    return { sha, files };
  }

  /**
   * Who holds the lock at `path` in `sha` (a commit here; null: no branch), for verify and
   * write: one git call, none for a commit looked at before. A damaged lock file is someone
   * else's lock.
   */
  private async lockAt(git: GitRunner, sha: string | null, path: string): Promise<LockInfo | null> {
    if (sha === null) return null;
    const key = `${sha}:${path}`;
    if (this.lockAtCache.has(key)) return this.lockAtCache.get(key)!;
    const r = await git.run(['cat-file', 'blob', key]);
    // Exit 128 for a path not in the commit (the commit is here: fetched or pushed by us).
    const info = r.code === 0 ? (parseLock(r.stdout) ?? unreadableLock(path)) : null;
    if (this.lockAtCache.size > 10_000) this.lockAtCache.clear();
    this.lockAtCache.set(key, info);
    return info;
  }

  /** The holder of the lock at `path` in `tip`, or null; a file that is no menuctl lock is an error. */
  private async holderIn(git: GitRunner, tip: Tip, path: string): Promise<LockInfo | null> {
    const oid = tip.files.get(path);
    if (!oid) return null;
    const info = parseLock(await readBlob(git, oid));
    if (!info) {
      throw new Error(`${this.shown}: ${path} on branch ${this.branch} is not a menuctl lock; if no menuctl run holds it, delete it from the branch with git`);
    }
    return info;
  }

  private async readLocks(git: GitRunner, tip: Tip): Promise<{ path: string; info: LockInfo }[]> {
    const out: { path: string; info: LockInfo }[] = [];
    for (const path of [...tip.files.keys()].sort()) {
      if (!path.startsWith(`${LOCK_DIR}/`) || !path.endsWith('.json')) continue;
      out.push({ path, info: (await this.holderIn(git, tip, path))! });
    }
    return out;
  }

  /**
   * Pushes `commit` (whose parent is `base`) if the branch is still at `base` (null: absent).
   * false when it is not: someone else pushed first, or reset or deleted the branch.
   */
  private async push(git: GitRunner, commit: string, base: string | null): Promise<boolean> {
    await this.o.beforePush?.();
    const ref = `refs/heads/${this.branch}`;
    const args = ['push', '--quiet', `--force-with-lease=${ref}:${base ?? ''}`, 'origin', `${commit}:${ref}`];
    const pushed = await git.run(args);
    if (pushed.code === 0) {
      this.known.add(commit);
      return true;
    }
    // Whether the branch moved, not git's message, tells a lost race from a refusal (no right
    // to push, a protected branch, a server hook), which must not be retried as a conflict.
    let now: string | null;
    try {
      now = await this.remoteTip(git);
    } catch {
      throw git.failure(args, pushed, this.remoteHint);
    }
    if (now === commit) {
      // The push landed; only its answer was lost.
      this.known.add(commit);
      return true;
    }
    if (now !== base) return false;
    // A server can refuse a push with "cannot lock ref" while a rival's update of the same
    // branch is still under way: look once more before calling it a refusal.
    await sleep(250);
    now = await this.remoteTip(git);
    if (now === commit) {
      this.known.add(commit);
      return true;
    }
    if (now !== base) return false;
    throw git.failure(args, pushed, `check that you may push to branch ${this.branch} of the remote (a protected branch or a server hook can refuse it)`);
  }
}

const backoff = (retry: number): number => fullJitter(retry, BACKOFF_BASE_MS, BACKOFF_CAP_MS);

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

/** A lock file that is not a menuctl lock: held by nobody this run can name. */
function unreadableLock(path: string): LockInfo {
  return { id: `git:${path}`, scope: 'unknown', who: 'unknown', host: 'unknown', command: 'unknown', started: 'unknown' };
}

/** A value for git's config file: quoted, with `\` and `"` escaped (no newline reaches here). */
function configQuote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
