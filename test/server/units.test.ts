// Pure pieces of the server: the rate limiter's token bucket, the seeded fault draws, the
// batched access-log writer and --user parsing.
import { describe, expect, it } from 'vitest';
import { batchedLines } from '../../src/server/access-log.js';
import { Faults } from '../../src/server/faults.js';
import { parseUser } from '../../src/cli/serve.js';

describe('rate limiter', () => {
  it('allows N per key, then asks to wait, and refills at N per second', () => {
    const f = new Faults({ rateLimit: 2 });
    const t = 1_000_000;
    expect(f.limited('a', t)).toBeNull();
    expect(f.limited('a', t)).toBeNull();
    expect(f.limited('a', t)).toBe(1);
    expect(f.limited('b', t)).toBeNull();
    expect(f.limited('a', t + 500)).toBeNull();
    expect(f.limited('a', t + 500)).toBe(1);
  });
  it('is off without --rate-limit', () => {
    const f = new Faults({});
    for (let i = 0; i < 100; i++) expect(f.limited('a', 0)).toBeNull();
  });
});

describe('seeded faults', () => {
  it('the same seed fails the same requests; rate 0 never fails, rate 1 always', () => {
    const draws = (seed: number) => { const f = new Faults({ failRate: 0.3, faultSeed: seed }); return Array.from({ length: 50 }, () => f.shouldFail()); };
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    expect(draws(7).filter(Boolean).length).toBeGreaterThan(5);
    const never = new Faults({ failRate: 0, resetRate: 0, faultSeed: 1 });
    const always = new Faults({ failRate: 1, resetRate: 1, faultSeed: 1 });
    for (let i = 0; i < 20; i++) {
      expect(never.shouldFail() || never.shouldReset()).toBe(false);
      expect(always.shouldFail() && always.shouldReset()).toBe(true);
    }
  });
});

describe('batched access log', () => {
  it('writes the lines of one event-loop turn in one chunk, and flushes on demand', async () => {
    const chunks: string[] = [];
    const log = batchedLines((c) => chunks.push(c));
    log('a');
    log('b');
    expect(chunks).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(chunks).toEqual(['a\nb\n']);
    log('c');
    log.flush();
    expect(chunks).toEqual(['a\nb\n', 'c\n']);
  });
});

describe('--user parsing', () => {
  it('reads EMAIL:PASSWORD[:ORG], defaulting ORG to 1 and keeping colons in passwords', () => {
    expect(parseUser('a@b.c:pw')).toEqual({ email: 'a@b.c', password: 'pw', organization_id: 1 });
    expect(parseUser('a@b.c:pw:62')).toEqual({ email: 'a@b.c', password: 'pw', organization_id: 62 });
    expect(parseUser('a@b.c:p:w:3')).toEqual({ email: 'a@b.c', password: 'p:w', organization_id: 3 });
    expect(parseUser('a@b.c:12')).toEqual({ email: 'a@b.c', password: '12', organization_id: 1 });
    expect(() => parseUser('nocolon')).toThrow(/EMAIL:PASSWORD/);
  });
});
