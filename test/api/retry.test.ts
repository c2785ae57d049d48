import { describe, expect, it } from 'vitest';
import {
  backoffDelay, retryDecision, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, type AttemptResult,
} from '../../src/api/retry.js';

const status = (s: number, retryAfter?: string): AttemptResult => ({ kind: 'status', status: s, retryAfter });
const net = (code: string): AttemptResult => ({ kind: 'network', code });

describe('retryDecision', () => {
  const cases: [string, AttemptResult, { retry: boolean; outcome: 'failed' | 'unknown' }][] = [
    ['GET', status(429), { retry: true, outcome: 'failed' }],
    ['GET', status(502), { retry: true, outcome: 'failed' }],
    ['GET', status(503), { retry: true, outcome: 'failed' }],
    ['GET', status(504), { retry: true, outcome: 'failed' }],
    ['GET', status(500), { retry: false, outcome: 'failed' }],
    ['GET', status(404), { retry: false, outcome: 'failed' }],
    ['PATCH', status(422), { retry: false, outcome: 'failed' }],
    ['PATCH', status(503), { retry: true, outcome: 'failed' }],
    ['DELETE', net('ECONNRESET'), { retry: true, outcome: 'failed' }],
    ['PUT', net('UND_ERR_HEADERS_TIMEOUT'), { retry: true, outcome: 'failed' }],
    ['GET', net('UND_ERR_SOCKET'), { retry: true, outcome: 'failed' }],
    ['GET', net('ECONNREFUSED'), { retry: true, outcome: 'failed' }],
    ['GET', net('ENOTFOUND'), { retry: false, outcome: 'failed' }],
    // POST: only what provably never reached the handler is sent again.
    ['POST', status(429), { retry: true, outcome: 'failed' }],
    ['POST', net('ECONNREFUSED'), { retry: true, outcome: 'failed' }],
    ['POST', net('UND_ERR_CONNECT_TIMEOUT'), { retry: true, outcome: 'failed' }],
    ['POST', status(502), { retry: false, outcome: 'unknown' }],
    ['POST', status(503), { retry: true, outcome: 'failed' }],
    ['POST', status(504), { retry: false, outcome: 'unknown' }],
    ['POST', status(500), { retry: false, outcome: 'unknown' }],
    ['POST', net('ECONNRESET'), { retry: false, outcome: 'unknown' }],
    ['POST', net('UND_ERR_SOCKET'), { retry: false, outcome: 'unknown' }],
    ['POST', net('UND_ERR_HEADERS_TIMEOUT'), { retry: false, outcome: 'unknown' }],
    ['POST', status(422), { retry: false, outcome: 'failed' }],
    ['POST', status(401), { retry: false, outcome: 'failed' }],
  ];
  it.each(cases)('%s after %o', (method, result, want) => {
    expect(retryDecision(method, result)).toMatchObject(want);
  });
});

describe('backoff', () => {
  const policy = DEFAULT_RETRY_POLICY;
  it('grows exponentially under full jitter with the random source at its top', () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, policy, top))).toEqual([199, 399, 799, 1599, 3199]);
  });
  it('is capped', () => {
    expect(backoffDelay(20, policy, () => 0.999999)).toBe(4999);
  });
  it('is scaled by the random source (full jitter: 0 is a valid delay)', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(800);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP-date', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
  it('is honoured on 429 (plus at most baseMs of jitter), capped, and falls back to backoff', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, retryAfterCapMs: 10_000 };
    const random = () => 0.5;
    expect(retryDelay({ retry: 0, result: status(429, '2'), policy, random, now })).toBe(2100);
    expect(retryDelay({ retry: 0, result: status(429, '3600'), policy, random, now })).toBe(10_100);
    expect(retryDelay({ retry: 2, result: status(429), policy, random, now })).toBe(400);
    expect(retryDelay({ retry: 2, result: status(503, '9'), policy, random, now })).toBe(400);
  });
});
