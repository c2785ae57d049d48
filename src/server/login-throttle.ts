// Failed logins per client address: every POST /api/authenticate runs a deliberately slow
// password hash, so one client's guesses both guessed freely and slowed every real login. Each client address has a token bucket of
// `attempts` failures, refilled at `attempts` per `windowS`: 10 per minute by default, a burst
// of 10 typos and then one attempt every 6 s, as login forms of real services allow. An attempt
// takes a token when it starts (so parallel guesses cannot all pass before the first fails) and
// a successful one gives it back: only failures count. An empty bucket is a 429 with
// Retry-After before the password is looked at, so a throttled guess costs no hash.
//
// Keyed by address only, not by email: a per-email budget would let anyone lock a real user
// out of their own account from elsewhere, and a login from another address must not be
// blocked by someone else's failures.

/** Failures allowed per client address, refilled over the window; attempts 0 turns it off. */
export interface LoginLimits {
  attempts: number;
  windowS: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { attempts: 10, windowS: 60 };

/** Addresses tracked at once; past it, those whose bucket is full again (nothing owed) go first. */
const MAX_CLIENTS = 10_000;

export class LoginThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(private readonly limits: LoginLimits, private readonly now: () => number = Date.now) {
    this.perMs = limits.attempts / (limits.windowS * 1000);
  }

  /** Reserves one attempt for `client`: null when it may go ahead, else the whole seconds to wait. */
  begin(client: string): number | null {
    const n = this.limits.attempts;
    if (n <= 0) return null;
    const b = this.bucket(client);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
  }

  /** The attempt begun for `client` succeeded: it does not count against the address. */
  succeeded(client: string): void {
    if (this.limits.attempts <= 0) return;
    const b = this.bucket(client);
    b.tokens = Math.min(this.limits.attempts, b.tokens + 1);
  }

  private bucket(client: string): { tokens: number; at: number } {
    const now = this.now();
    let b = this.buckets.get(client);
    if (!b) {
      if (this.buckets.size >= MAX_CLIENTS) this.sweep(now);
      b = { tokens: this.limits.attempts, at: now };
      this.buckets.set(client, b);
    }
    b.tokens = Math.min(this.limits.attempts, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    return b;
  }

  /** Drops the buckets that have refilled (the same as none); if still too many, the oldest. */
  private sweep(now: number): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.limits.attempts) this.buckets.delete(k);
    }
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < MAX_CLIENTS) break;
      this.buckets.delete(k);
    }
  }
}
