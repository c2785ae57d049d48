// Adaptive in-flight limit (AIMD, as TCP congestion control): every request holds a slot
// while on the wire. A 429 halves the limit (down to 1) so a rate-limited server sees fewer
// requests instead of the same number retried; each `limit` successes in a row add one
// slot back, up to the configured maximum. Many requests in flight when the server starts
// throttling all see 429 at once: only the first of them (same epoch) halves the limit,
// otherwise one burst would collapse it to 1.
// A 429's Retry-After also pauses the whole run (pause/pausedFor): a rate limit is per
// credential, so every request of this client would meet it; they wait instead of each
// spending a request to learn the same thing.

//
// Latency-aware growth (`--concurrency auto`): start at `start` and, each window of
// `limit` successes, add a slot only while the window's mean latency stays within 25% of the best
// window seen (more requests in flight are then served in parallel, not queued); take one back
// when it doubles (the server is queueing them), down to `start` at most. A 429 still halves. So the limit climbs to what
// the server serves at once, and never storms it: growth is one slot per window.

export interface Permit {
  readonly epoch: number;
  /** When the request got its slot (the limiter's clock, ms). */
  readonly started: number;
}

export interface LimiterOptions {
  /** Latency-aware: begin at this limit and grow towards `max` while latency stays flat. */
  start?: number;
  now?: () => number;
}

const FLAT = 1.25;
const QUEUEING = 2;

export type Result = 'ok' | 'throttled' | 'other';

export class AdaptiveLimiter {
  private limitNow: number;
  private inFlight = 0;
  private epoch = 0;
  private successes = 0;
  private readonly waiters: (() => void)[] = [];
  private pausedUntil = 0;
  private readonly latencyAware: boolean;
  private readonly now: () => number;
  private windowMs = 0;
  private bestMean = Infinity;
  private readonly start: number;

  constructor(private readonly max: number, options: LimiterOptions = {}) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be an integer >= 1, got ${max}`);
    this.latencyAware = options.start !== undefined;
    this.limitNow = Math.min(max, Math.max(1, options.start ?? max));
    this.start = this.limitNow;
    this.now = options.now ?? (() => performance.now());
  }

  get limit(): number {
    return this.limitNow;
  }

  get active(): number {
    return this.inFlight;
  }

  /** No request should start before `until` (ms, the caller's clock): the server said so. */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** How long a request about to start must still wait (ms); 0 when not paused. */
  pausedFor(now: number): number {
    return Math.max(0, this.pausedUntil - now);
  }

  /** The same slot, its latency counted from now (after a wait that was not the server's). */
  restamp(permit: Permit): Permit {
    return { epoch: permit.epoch, started: this.now() };
  }

  async acquire(): Promise<Permit> {
    if (this.inFlight >= this.limitNow || this.waiters.length > 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    } else {
      this.inFlight++;
    }
    return { epoch: this.epoch, started: this.now() };
  }

  release(permit: Permit, result: Result): void {
    this.inFlight--;
    if (result === 'throttled') {
      this.successes = 0;
      this.windowMs = 0;
      if (permit.epoch === this.epoch) {
        this.limitNow = Math.max(1, Math.floor(this.limitNow / 2));
        this.epoch++;
      }
    } else if (result === 'ok') {
      this.successes++;
      this.windowMs += this.now() - permit.started;
      if (this.successes >= this.limitNow) this.endWindow();
    }
    this.wake();
  }

  /** After `limit` successes in a row: one more slot, unless latency says the server is queueing. */
  private endWindow(): void {
    const mean = this.windowMs / this.successes;
    this.successes = 0;
    this.windowMs = 0;
    if (!this.latencyAware) {
      if (this.limitNow < this.max) this.limitNow++;
      return;
    }
    this.bestMean = Math.min(this.bestMean, mean);
    if (mean <= this.bestMean * FLAT + 1) {
      if (this.limitNow < this.max) this.limitNow++;
    } else if (mean > this.bestMean * QUEUEING) {
      // Back off towards the starting level, not below it: there the slower answers are slower
      // requests (writes after reads), not queueing, and they become the new baseline.
      if (this.limitNow > this.start) this.limitNow--;
      else this.bestMean = mean;
    }
  }

  private wake(): void {
    while (this.waiters.length > 0 && this.inFlight < this.limitNow) {
      this.inFlight++;
      this.waiters.shift()!();
    }
  }
}
