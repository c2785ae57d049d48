// Fault injection for testing clients (CONTRACT.md, Reference server), all off by default.
// With a seed the fail/reset draws come from a deterministic generator, one draw per decision
// in request arrival order, so tests can predict which requests fail.

export interface FaultOptions {
  latencyMs?: number;
  failRate?: number;
  resetRate?: number;
  rateLimit?: number;
  faultSeed?: number;
  /**
   * A server of fixed capacity (extension, docs/api.md): at most N requests spend their
   * --latency at once; the rest queue for a slot, so latency grows past N in flight. 0: unbounded.
   */
  capacity?: number;
}

/** mulberry32: small, fast, good enough to pick which requests fail. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  readonly latencyMs: number;
  private readonly capacity: number;
  private busy = 0;
  private readonly queue: (() => void)[] = [];
  private readonly failRate: number;
  private readonly resetRate: number;
  private readonly rateLimit: number;
  private readonly random: () => number;
  // Token buckets per credential: capacity N, refilled at N per second.
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(o: FaultOptions) {
    this.latencyMs = Math.max(0, o.latencyMs ?? 0);
    this.capacity = Math.max(0, o.capacity ?? 0);
    this.failRate = clampRate(o.failRate);
    this.resetRate = clampRate(o.resetRate);
    this.rateLimit = Math.max(0, o.rateLimit ?? 0);
    this.random = o.faultSeed !== undefined ? seeded(o.faultSeed) : Math.random;
  }

  /** The --latency delay, taken in one of --capacity slots (queued FIFO when all are busy). */
  async delay(sleep: (ms: number) => Promise<unknown>): Promise<void> {
    if (this.capacity === 0) {
      if (this.latencyMs > 0) await sleep(this.latencyMs);
      return;
    }
    if (this.busy >= this.capacity) await new Promise<void>((r) => this.queue.push(r));
    else this.busy++;
    try {
      await sleep(this.latencyMs);
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.busy--;
    }
  }

  shouldFail(): boolean {
    return this.failRate > 0 && this.random() < this.failRate;
  }

  shouldReset(): boolean {
    return this.resetRate > 0 && this.random() < this.resetRate;
  }

  /** null when the request may go ahead; otherwise the whole seconds to wait (Retry-After). */
  limited(key: string, now: number = Date.now()): number | null {
    if (this.rateLimit <= 0) return null;
    const n = this.rateLimit;
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 10_000) this.buckets.clear();
      b = { tokens: n, at: now };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(n, b.tokens + ((now - b.at) / 1000) * n);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / n));
  }
}

function clampRate(p: number | undefined): number {
  if (p === undefined || !Number.isFinite(p)) return 0;
  return Math.min(1, Math.max(0, p));
}
