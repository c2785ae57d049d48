// The git backend's scratch repositories (src/state/git.ts): one per backend instance, in the
// temporary directory, removed by close(). A run that was killed (SIGKILL, a CI job cancelled)
// cannot remove its own, so each is named after the host and process that made it, and every new
// one first removes those whose process is gone. None holds a secret (credentials reach git
// through its environment only), so this is tidiness, not secrecy; except for the directories of
// versions that kept a URL's password in the scratch config, which are removed after an hour.

import { createHash } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process.js';

const PREFIX = 'menuctl-git-state-';
/** `menuctl-git-state-<host tag>-<pid>-XXXXXX`: mkdtemp adds the six characters. */
const NAMED = /^menuctl-git-state-([0-9a-f]{8})-(\d+)-[A-Za-z0-9]{6}$/;
/** The older `menuctl-git-state-XXXXXX`, with no owner to ask: removed once surely unused. */
const LEGACY = /^menuctl-git-state-[A-Za-z0-9]{6}$/;
const LEGACY_AGE_MS = 60 * 60 * 1000;

/**
 * The host in a short tag: a pid means something only on the host that gave it (two containers
 * sharing /tmp have their own pids, and a live run's repository must never be removed).
 */
function hostTag(): string {
  // Containers can share /tmp and a host name but not their pids: the pid namespace is part of
  // the tag, so another container's live run never looks dead from here.
  let pidNamespace = '';
  try {
    pidNamespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // not Linux: the host name alone
  }
  return createHash('sha256').update(`${hostname()}\0${pidNamespace}`).digest('hex').slice(0, 8);
}

/** A new scratch directory (0700, as mkdtemp makes it), after sweeping those of dead runs. */
export async function makeScratchDir(): Promise<string> {
  await sweepScratchDirs();
  return mkdtemp(join(tmpdir(), `${PREFIX}${hostTag()}-${process.pid}-`));
}

/** Removes the scratch directories of this user's runs on this host that are no longer running. */
export async function sweepScratchDirs(now = Date.now()): Promise<string[]> {
  const root = tmpdir();
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const tag = hostTag();
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const named = NAMED.exec(name);
    const path = join(root, name);
    try {
      const st = await lstat(path);
      // Another user's (a shared /tmp) is theirs to remove; a symlink is nobody's scratch.
      if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) continue;
      const dead = named
        ? named[1] === tag && Number(named[2]) !== process.pid && !processAlive(Number(named[2]))
        : LEGACY.test(name) && now - st.mtimeMs > LEGACY_AGE_MS;
      if (!dead) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Gone meanwhile (another run swept it) or not ours to remove: nothing to do.
    }
  }
  return removed;
}
