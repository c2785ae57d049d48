// Whether a lock's holder still runs, where that can be known: on this host, by its pid.

import { hostname } from 'node:os';
import type { LockInfo } from './backend.js';

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True only when the holder ran on this host and its process is gone (killed): provably dead. */
export function holderGone(h: LockInfo): boolean {
  return h.pid !== undefined && h.host === hostname() && !processAlive(h.pid);
}

/** True only when the holder ran on this host and its process still runs (not this process). */
export function holderAlive(h: LockInfo): boolean {
  return h.pid !== undefined && h.host === hostname() && h.pid !== process.pid && processAlive(h.pid);
}
