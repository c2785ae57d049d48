// IdleQueue (src/engine/idle-queue.ts): queued work runs once pushes stop for a quiet spell, a
// slice at a time, never while they keep coming; drain() runs the rest in order, abandon() drops it.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { IdleQueue } from '../../src/engine/idle-queue.js';

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy */ }
};

describe('IdleQueue', () => {
  it('runs what was queued once pushes stop for the quiet spell, never in the pushing turn', async () => {
    const ran: number[] = [];
    const q = new IdleQueue<number>((n) => ran.push(n), { quietMs: 5, sliceMs: 50 });
    for (let i = 0; i < 3; i++) q.push(i);
    expect(ran).toEqual([]);
    await sleep(30);
    expect(ran).toEqual([0, 1, 2]);
    q.push(3);
    expect(ran).toEqual([0, 1, 2]);
    q.drain();
    expect(ran).toEqual([0, 1, 2, 3]);
  });

  it('runs nothing while pushes keep coming sooner than the quiet spell', async () => {
    const ran: number[] = [];
    const q = new IdleQueue<number>((n) => ran.push(n), { quietMs: 40, sliceMs: 50 });
    for (let i = 0; i < 8; i++) {
      q.push(i);
      await sleep(5);
    }
    expect(ran).toEqual([]);
    expect(q.pending).toBe(8);
    q.drain();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(q.pending).toBe(0);
    await sleep(60); // no timer left behind to run anything twice
    expect(ran).toHaveLength(8);
  });

  it('runs a backlog a slice at a time, in order', async () => {
    const ran: number[] = [];
    const slices: number[] = [];
    let turn = 0;
    const q = new IdleQueue<number>((n) => {
      spin(3);
      ran.push(n);
      slices.push(turn);
    }, { quietMs: 5, sliceMs: 4 });
    for (let i = 0; i < 6; i++) q.push(i);
    const ticker = setInterval(() => turn++, 1);
    await vi.waitFor(() => expect(ran).toHaveLength(6), { timeout: 2_000, interval: 5 });
    clearInterval(ticker);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    // A slice of 4 ms holds at most two 3 ms items: the six took at least three turns.
    expect(new Set(slices).size).toBeGreaterThanOrEqual(3);
  });
});

describe('IdleQueue when things go wrong', () => {
  it('keeps what an item threw in a slice for drain(), instead of throwing from a timer', async () => {
    const ran: number[] = [];
    const q = new IdleQueue<number>((n) => {
      if (n === 1) throw new Error('item 1 failed');
      ran.push(n);
    }, { quietMs: 2, sliceMs: 50 });
    q.push(0);
    q.push(1);
    q.push(2);
    await sleep(20); // an uncaught exception here would fail the test run
    expect(ran).toEqual([0]);
    expect(() => q.drain()).toThrow('item 1 failed');
  });

  it('cancel() drops the queue and its timer: nothing runs afterwards, not even what comes later', async () => {
    const ran: number[] = [];
    const q = new IdleQueue<number>((n) => ran.push(n), { quietMs: 5, sliceMs: 50 });
    q.push(0);
    q.push(1);
    q.cancel();
    q.push(2); // an answer still in flight when the read failed
    await sleep(20);
    expect(ran).toEqual([]);
    expect(q.pending).toBe(0);
  });

  it('a slice of 0 ms still runs an item at a time', async () => {
    const ran: number[] = [];
    const q = new IdleQueue<number>((n) => ran.push(n), { quietMs: 2, sliceMs: 0 });
    q.push(0);
    q.push(1);
    await vi.waitFor(() => expect(ran).toEqual([0, 1]), { timeout: 2_000, interval: 5 });
  });

  it('an item that queues another: all run once, and nothing runs after drain()', async () => {
    const ran: number[] = [];
    const q: IdleQueue<number> = new IdleQueue<number>((n) => {
      ran.push(n);
      if (n === 0) q.push(10);
    }, { quietMs: 5, sliceMs: 0 });
    q.push(0);
    q.push(1);
    await sleep(8); // the first slice ran 0, which queued 10
    q.drain();
    const drained = [...ran];
    await sleep(30);
    expect(ran).toEqual(drained);
    expect(ran.sort((a, b) => a - b)).toEqual([0, 1, 10]);
  });

  it('abandon() drops what is still queued, runs nothing later, and throws what a slice threw', async () => {
    const ran: number[] = [];
    const q = new IdleQueue<number>((n) => ran.push(n), { quietMs: 5, sliceMs: 50 });
    q.push(0);
    await sleep(30);
    q.push(1);
    q.push(2);
    q.abandon();
    expect(ran).toEqual([0]);
    expect(q.pending).toBe(0);
    await sleep(30);
    expect(ran).toEqual([0]);

    const failing = new IdleQueue<number>(() => {
      throw new Error('item failed');
    }, { quietMs: 5, sliceMs: 50 });
    failing.push(0);
    await sleep(30);
    expect(() => failing.abandon()).toThrow('item failed');
  });
});
