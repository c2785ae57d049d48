// The retry policy, in one place (CONVENTIONS.md: "Retry only what is transient").
// Idempotent requests are retried on transient failures. A POST creates something, so it is
// retried only when it provably never reached the server's handler; otherwise its outcome
// is "unknown" and the caller (apply) looks the resource up by identity before creating
// again. Retries are bounded by time: a 429 says nothing was done and does
// not use up an attempt, it only makes the request (and the whole run, limiter.ts) wait.
// docs/api.md "## Client" explains the numbers.

import type { FailureKind } from './errors.js';

export interface RetryPolicy {
  /** Attempts that may fail with something other than 429, the first included. */
  maxAttempts: number;
  /** Backoff base and cap (ms): delay = random() * min(capMs, baseMs * 2^retry) ("full jitter"). */
  baseMs: number;
  capMs: number;
  /** Longest wait honoured from a Retry-After header (ms). */
  retryAfterCapMs: number;
  /** Most time one request spends waiting between its attempts (ms), 429s included. */
  budgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 10,
  baseMs: 200,
  capMs: 5_000,
  retryAfterCapMs: 30_000,
  budgetMs: 120_000,
};

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);

/** What one attempt ended with. */
export type AttemptResult =
  | { kind: 'status'; status: number; retryAfter?: string | null }
  | { kind: 'network'; code: string };

export interface RetryDecision {
  retry: boolean;
  /** What a failure means when not retried (or when attempts run out). */
  outcome: FailureKind;
  /** The failure was transient (worth reporting as retryable). */
  transient: boolean;
}

// Failed before the request left this machine or before a connection existed:
// the server cannot have acted on it, whatever the method.
const NEVER_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);
// Failed after (possibly) sending: the server may have acted.
const MAYBE_SENT = new Set([
  'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const GATEWAY = new Set([502, 504]);

/** Decides whether to retry one failed attempt, and what a final failure means. */
export function retryDecision(
  method: string, result: AttemptResult, idempotent: boolean = IDEMPOTENT_METHODS.has(method),
): RetryDecision {
  if (result.kind === 'network') {
    if (NEVER_SENT.has(result.code)) return { retry: true, outcome: 'failed', transient: true };
    if (MAYBE_SENT.has(result.code)) {
      return idempotent
        ? { retry: true, outcome: 'failed', transient: true }
        : { retry: false, outcome: 'unknown', transient: true };
    }
    // ENOTFOUND, TLS errors...: configuration problems, not worth waiting for.
    return { retry: false, outcome: idempotent ? 'failed' : 'unknown', transient: false };
  }
  const { status } = result;
  // A rate limiter rejects before any work is done, so even a POST is safe to send again.
  if (status === 429) return { retry: true, outcome: 'failed', transient: true };
  // 503 Service Unavailable says the server did not take the request on (RFC 9110 15.6.4): like
  // a 429, it answers before any work, so even a POST is sent again, and a create that keeps
  // getting 503 failed for certain (counting it unknown stopped every later plan on apps that
  // never existed). The reference server answers its 503s before any work.
  if (status === 503) return { retry: true, outcome: 'failed', transient: true };
  if (GATEWAY.has(status)) {
    // A client cannot know whether a 502 or 504 from a gateway came before or after the handler ran.
    return idempotent
      ? { retry: true, outcome: 'failed', transient: true }
      : { retry: false, outcome: 'unknown', transient: true };
  }
  // Any other 5xx to a POST: the handler may have committed before failing.
  if (status >= 500 && !idempotent) return { retry: false, outcome: 'unknown', transient: false };
  return { retry: false, outcome: 'failed', transient: false };
}

/** Full-jitter exponential backoff before retry number `retry` (0 for the first retry). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Retry-After as delta-seconds or an HTTP-date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before the next attempt: the server's Retry-After when it gave one (capped, plus
 * a little jitter so waiting requests do not all return in the same millisecond), else the
 * jittered backoff.
 */
export function retryDelay(options: {
  retry: number; result: AttemptResult; policy: RetryPolicy; random: () => number; now: number;
}): number {
  const { retry, result, policy, random, now } = options;
  if (result.kind === 'status' && result.status === 429) {
    const after = parseRetryAfter(result.retryAfter, now);
    if (after !== null) return Math.min(after, policy.retryAfterCapMs) + Math.floor(random() * policy.baseMs);
  }
  return backoffDelay(retry, policy, random);
}
