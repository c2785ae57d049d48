import { describe, expect, it } from 'vitest';
import { AdaptiveLimiter } from '../../src/api/limiter.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('AdaptiveLimiter', () => {
  it('never lets more than the limit in flight', async () => {
    const l = new AdaptiveLimiter(2);
    const started: number[] = [];
    const permits = [0, 1, 2, 3].map((i) => l.acquire().then((p) => { started.push(i); return p; }));
    await tick();
    expect(started).toEqual([0, 1]);
    l.release(await permits[0]!, 'ok');
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(l.active).toBe(2);
  });

  it('halves on 429 down to 1, once per burst of requests that were in flight together', async () => {
    const l = new AdaptiveLimiter(8);
    const burst = await Promise.all(Array.from({ length: 8 }, () => l.acquire()));
    for (const p of burst) l.release(p, 'throttled');
    expect(l.limit).toBe(4);
    for (const expected of [2, 1, 1]) {
      l.release(await l.acquire(), 'throttled');
      expect(l.limit).toBe(expected);
    }
  });

  it('adds one slot after a run of `limit` successes, up to the maximum', async () => {
    const l = new AdaptiveLimiter(4);
    l.release(await l.acquire(), 'throttled');
    l.release(await l.acquire(), 'throttled');
    expect(l.limit).toBe(1);
    const limits: number[] = [];
    for (let i = 0; i < 12; i++) {
      l.release(await l.acquire(), 'ok');
      limits.push(l.limit);
    }
    // 1 success -> 2, 2 more -> 3, 3 more -> 4, then it stays at the maximum.
    expect(limits).toEqual([2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4]);
  });

  it('does not count other failures as successes', async () => {
    const l = new AdaptiveLimiter(2);
    l.release(await l.acquire(), 'throttled');
    for (let i = 0; i < 5; i++) l.release(await l.acquire(), 'other');
    expect(l.limit).toBe(1);
  });

  it('rejects a limit below 1', () => {
    expect(() => new AdaptiveLimiter(0)).toThrow(/>= 1/);
  });

  it('pause: no request should start before the latest time any 429 named', () => {
    const l = new AdaptiveLimiter(4);
    expect(l.pausedFor(1000)).toBe(0);
    l.pause(5000);
    l.pause(3000);
    expect(l.pausedFor(1000)).toBe(4000);
    expect(l.pausedFor(4999)).toBe(1);
    expect(l.pausedFor(6000)).toBe(0);
  });

  describe('latency-aware (--concurrency auto)', () => {
    /** Runs one window of `limit` requests that each take `ms` on the injected clock. */
    function window(l: AdaptiveLimiter, clock: { t: number }, ms: number): Promise<void> {
      const n = l.limit;
      return (async () => {
        const permits = await Promise.all(Array.from({ length: n }, () => l.acquire()));
        clock.t += ms;
        for (const p of permits) l.release(p, 'ok');
      })();
    }

    it('starts at `start` and grows one slot per window while latency stays flat, up to the maximum', async () => {
      const clock = { t: 0 };
      const l = new AdaptiveLimiter(12, { start: 8, now: () => clock.t });
      expect(l.limit).toBe(8);
      for (let i = 0; i < 6; i++) await window(l, clock, 20);
      expect(l.limit).toBe(12);
    });

    it('stops growing when latency rises, and gives a slot back when it doubles', async () => {
      const clock = { t: 0 };
      const l = new AdaptiveLimiter(64, { start: 8, now: () => clock.t });
      await window(l, clock, 20);
      expect(l.limit).toBe(9);
      await window(l, clock, 30); // 1.5x the best: queueing has begun, hold
      expect(l.limit).toBe(9);
      await window(l, clock, 45); // over 2x: one back
      expect(l.limit).toBe(8);
    });

    it('backs off to where it started, not below: slower requests later (writes after reads) are a new baseline', async () => {
      const clock = { t: 0 };
      const l = new AdaptiveLimiter(64, { start: 8, now: () => clock.t });
      for (let i = 0; i < 3; i++) await window(l, clock, 10);
      expect(l.limit).toBe(11);
      for (let i = 0; i < 3; i++) await window(l, clock, 25); // flat, but 2.5x the reads: back off
      expect(l.limit).toBe(8);
      await window(l, clock, 25); // at the start: not queueing, a new baseline (not 7)
      expect(l.limit).toBe(8);
      await window(l, clock, 25); // flat against it: growth resumes
      expect(l.limit).toBe(9);
    });

    it('restamp(): a permit\'s latency counts from after a wait that was not the server\'s (a 429 pause)', async () => {
      const clock = { t: 0 };
      const l = new AdaptiveLimiter(64, { start: 8, now: () => clock.t });
      await window(l, clock, 10);
      expect(l.limit).toBe(9);
      // Every request of the next window first waits 1 s for a pause, then takes 10 ms.
      const permits = await Promise.all(Array.from({ length: 9 }, () => l.acquire()));
      clock.t += 1000;
      const restamped = permits.map((p) => l.restamp(p));
      clock.t += 10;
      for (const p of restamped) l.release(p, 'ok');
      expect(l.limit).toBe(10);
    });

    it('still halves on a 429', async () => {
      const clock = { t: 0 };
      const l = new AdaptiveLimiter(64, { start: 8, now: () => clock.t });
      l.release(await l.acquire(), 'throttled');
      expect(l.limit).toBe(4);
    });
  });
});
