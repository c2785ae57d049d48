// Waiting for a lock, the same for every backend: try; when held, say so once and try again
// until --lock-timeout runs out, then refuse naming the holder (CONTRACT.md "State").

import type { LockInfo, LockOptions } from './backend.js';

/** How often a held lock is tried again while waiting (a second is what Terraform uses). */
export const LOCK_POLL_MS = 1000;

/**
 * `attempt` takes the lock and returns null, or returns the holder when it is held.
 * Throws `refuse(holder)` once the timeout has passed.
 */
export async function pollLock(
  options: LockOptions & { pollMs?: number }, attempt: () => Promise<LockInfo | null>, refuse: (holder: LockInfo) => Error,
): Promise<void> {
  const deadline = Date.now() + Math.max(0, options.timeoutMs);
  let told = false;
  for (;;) {
    const holder = await attempt();
    if (holder === null) return;
    const left = deadline - Date.now();
    if (left <= 0) throw refuse(holder);
    if (!told) options.onWait?.(holder);
    told = true;
    await new Promise((resume) => setTimeout(resume, Math.min(left, options.pollMs ?? LOCK_POLL_MS)));
  }
}
