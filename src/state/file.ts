// The file backend (`file:PATH`, the default `menuctl.lock` beside the config): the record as
// it always was, for one person on one disk. The version is the text's SHA-256, so a write
// refuses to replace a file someone changed since it was read. A scope's lock is a file beside
// the record, created exclusively (O_EXCL), holding who took it: a second apply in another
// terminal is refused naming the first. A lock whose holder ran on this host and whose process
// is gone (killed) is taken over and reported: the OS answers that no one holds it, and the
// record was written after every confirmed write, so the next plan is truthful. One from another
// host (a shared disk) stays until `menuctl state unlock ID`.

import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkWritable, readRegularFile, writeFileAtomic } from '../fs/atomic-write.js';
import { LockHeld, LockHolderAlive, LockLost, StateConflict, describeHolder, type LockInfo, type LockOptions, type Snapshot, type StateBackend } from './backend.js';
import { pollLock } from './poll.js';
import { holderGone, holderAlive } from './process.js';

const WHAT = 'applied-state record';

export const versionOf = (text: string): string => createHash('sha256').update(text).digest('hex');

const scopeTag = (scope: string): string => createHash('sha256').update(scope).digest('hex').slice(0, 16);

export class FileBackend implements StateBackend {
  /** The locks this instance took (lock id -> info): its own unlock is never refused as "alive". */
  private readonly mine = new Map<string, LockInfo>();

  constructor(readonly path: string, readonly shown: string) {}

  async read(): Promise<Snapshot> {
    const text = await readRegularFile(this.path, WHAT);
    return text === null ? { text: null, version: null } : { text, version: versionOf(text) };
  }

  /**
   * On one disk the held locks are checked just before the rename, not atomically with it (the
   * file system has no compare-and-swap over two files): a lock taken in that moment is not
   * seen. git and PostgreSQL check it as part of the write.
   */
  async write(text: string, expected: string | null, _message?: string, held: readonly LockInfo[] = []): Promise<string> {
    for (const lock of held) await this.verify(lock);
    const now = await readRegularFile(this.path, WHAT);
    if ((now === null ? null : versionOf(now)) !== expected) throw new StateConflict(this.shown);
    await writeFileAtomic(this.path, text, { mkdirs: false });
    return versionOf(text);
  }

  /** `.menuctl.lock.<scope tag>.lock-info` beside the record: hidden, and one per scope. */
  private lockPath(scope: string): string {
    return join(dirname(this.path), `.${basename(this.path)}.${scopeTag(scope)}.lock-info`);
  }

  async lock(info: LockInfo, options: LockOptions): Promise<void> {
    // A record that could not be written is refused now, in the words apply has always used.
    await checkWritable(this.path, WHAT);
    const path = this.lockPath(info.scope);
    await pollLock(options, async () => {
      try {
        await this.createLockFile(path, info);
        this.mine.set(info.id, info);
        return null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new Error(`cannot lock the ${WHAT} ${this.shown}: ${(err as Error).message}`);
        }
        // Held; a lock file being written this very moment reads as unknown (retried).
        const holder = (await this.holderAt(path)) ?? unknownHolder(info.scope, path);
        if (holderGone(holder) && (await this.takeOver(path, holder, info))) {
          this.mine.set(info.id, info);
          options.onStale?.(holder);
          return null;
        }
        return holder;
      }
    }, (holder) => new LockHeld(holder, this.shown));
  }

  /**
   * Replaces the lock of a holder that provably died (this host, its process gone): reported by
   * the caller, never silent. One taker at a time: a `.takeover` file created exclusively; one
   * left by a taker killed in these few milliseconds is stale after a minute.
   */
  private async takeOver(path: string, dead: LockInfo, info: LockInfo): Promise<boolean> {
    const guard = `${path}.takeover`;
    try {
      await (await open(guard, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644)).close();
    } catch {
      const age = await stat(guard).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 60_000) await rm(guard, { force: true });
      return false;
    }
    try {
      const now = await this.holderAt(path);
      if (now === null || now.id !== dead.id) return false;
      await rm(path, { force: true });
      await this.createLockFile(path, info);
      return true;
    } finally {
      await rm(guard, { force: true });
    }
  }

  /**
   * The lock file appears whole or not at all: the holder is written to a temp file, which is then
   * hard-linked to the lock's name (link fails with EEXIST when it exists: an atomic create), so a
   * second run never reads a lock file that is still being written.
   */
  private async createLockFile(path: string, info: LockInfo): Promise<void> {
    const tmp = `${path}.${process.pid}.${info.id}.tmp`;
    const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    try {
      await fh.writeFile(`${JSON.stringify(info)}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await link(tmp, path);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  private async holderAt(path: string): Promise<LockInfo | null> {
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as LockInfo;
      return typeof parsed?.id === 'string' && typeof parsed.scope === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Whether `lock` (ours) is still the one in its lock file; LockLost when not. */
  async verify(lock: LockInfo): Promise<void> {
    const now = await this.holderAt(this.lockPath(lock.scope));
    if (now?.id === lock.id) return;
    throw new LockLost(lock, this.shown, now === null ? 'its lock file was removed (`menuctl state unlock`?)' : `it is now held by ${describeHolder(now)} (lock id ${now.id})`);
  }

  async unlock(id: string, options: { force?: boolean } = {}): Promise<LockInfo | null> {
    for (const { path, info } of await this.lockFiles()) {
      if (info.id !== id) continue;
      if (!this.mine.has(id) && !options.force && holderAlive(info)) {
        throw new LockHolderAlive(info, this.shown, `${this.shown}: lock ${id} on ${info.scope} is held by a run that is still running: ${describeHolder(info)}, process ${info.pid} on this host. `
          + 'Wait for it to finish; to release it anyway (that run then stops at its next write), pass --force');
      }
      await rm(path, { force: true });
      this.mine.delete(id);
      return info;
    }
    return null;
  }

  async locks(): Promise<LockInfo[]> {
    return (await this.lockFiles()).map((l) => l.info);
  }

  private async lockFiles(): Promise<{ path: string; info: LockInfo }[]> {
    const dir = dirname(this.path);
    const prefix = `.${basename(this.path)}.`;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const out: { path: string; info: LockInfo }[] = [];
    for (const name of names.filter((n) => n.startsWith(prefix) && n.endsWith('.lock-info')).sort()) {
      const path = join(dir, name);
      const info = await this.holderAt(path);
      if (info) out.push({ path, info });
    }
    return out;
  }

  check(): Promise<void> {
    return checkWritable(this.path, WHAT);
  }

  async close(): Promise<void> {}
}

/** A lock file that cannot be read (being written, or damaged): still a lock, named by its file. */
function unknownHolder(scope: string, path: string): LockInfo {
  return { id: `file:${basename(path)}`, scope, who: 'unknown', host: 'unknown', command: 'unknown', started: 'unknown' };
}
