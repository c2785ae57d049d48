// Waiting for a lock, the same for every backend: try; when held, say so once and try again
// until --lock-timeout runs out, then refuse naming the holder (CONTRACT.md "State").

import type { LockInfo, LockOptions } from './backend.js';

/** How often a held lock is tried again while waiting (a second is what Terraform uses). */
export const LOCK_POLL_MS = 1000;

/**
 * `attempt` takes the lock and returns null, or returns the holder when it is held.
 * Throws `refuse(holder)` once the timeout has passed. Asked to wait (a timeout above 0), the
 * caller is told so once, even when the first try alone used up the time. `pollMs`: a fixed
 * interval, or one per try (PostgreSQL looks again sooner at first: a try there is one query).
 */
export async function pollLock(
  options: LockOptions & { pollMs?: number | ((tries: number) => number) }, attempt: () => Promise<LockInfo | null>, refuse: (holder: LockInfo) => Error,
): Promise<void> {
  const deadline = Date.now() + Math.max(0, options.timeoutMs);
  let told = false;
  for (let tries = 0; ; tries++) {
    const holder = await attempt();
    if (holder === null) return;
    if (!told && options.timeoutMs > 0) options.onWait?.(holder);
    told = true;
    const left = deadline - Date.now();
    if (left <= 0) throw refuse(holder);
    const every = options.pollMs ?? LOCK_POLL_MS;
    await new Promise((resume) => setTimeout(resume, Math.min(left, typeof every === 'number' ? every : every(tries))));
  }
}

/**
 * Full-jitter backoff (a random wait up to base x 2^retry, capped), so runs racing for one branch
 * or row spread out instead of colliding again: the state layer's copy of api/retry.ts's
 * backoffDelay, which the layers keep it from importing.
 */
export function fullJitter(retry: number, baseMs: number, capMs: number): number {
  return Math.floor(Math.random() * Math.min(capMs, baseMs * 2 ** Math.min(retry, 30)));
}
