// Turning whatever a client call threw into a ChangeOutcome's error, and telling an unknown outcome
// (the request may or may not have been carried out) from a definite failure.
// The client's ApiError is read by its shape (outcome, status), so any error carrying an outcome
// is classified alike.

import type { OutcomeError } from './types.js';

interface ApiErrorLike {
  message?: unknown;
  status?: unknown;
  code?: unknown;
  detail?: unknown;
  outcome?: unknown;
}

/**
 * True when the client says a write may have happened although no answer came back
 * (timeout, connection reset after sending, 502/503/504 on a POST). Such a create must be
 * looked up by its identity before it is sent again, or it could exist twice.
 */
export function isUnknownOutcome(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as ApiErrorLike).outcome === 'unknown';
}

export function toOutcomeError(err: unknown): OutcomeError {
  if (typeof err !== 'object' || err === null) return { message: String(err) };
  const e = err as ApiErrorLike;
  const out: OutcomeError = { message: typeof e.message === 'string' ? e.message : String(err) };
  if (typeof e.status === 'number') out.status = e.status;
  if (typeof e.code === 'string') out.code = e.code;
  if (typeof e.detail === 'string') out.detail = e.detail;
  return out;
}

const NETWORK_CAUSE: Record<string, string> = {
  ECONNRESET: 'connection reset', EPIPE: 'connection reset', UND_ERR_SOCKET: 'connection reset', UND_ERR_CLOSED: 'connection closed',
  ETIMEDOUT: 'time-out', UND_ERR_HEADERS_TIMEOUT: 'time-out', UND_ERR_BODY_TIMEOUT: 'time-out',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'answer cut short',
};

/** How a create's answer was lost, in the record's words (`lost`): what happened, not a guess. */
export function lostCause(err: unknown): string {
  if (typeof err !== 'object' || err === null) return 'the answer was lost';
  const e = err as ApiErrorLike & { networkCode?: unknown; name?: unknown };
  if (e.name === 'AbortError') return 'interrupted';
  if (typeof e.networkCode === 'string' && NETWORK_CAUSE[e.networkCode]) return NETWORK_CAUSE[e.networkCode]!;
  if (typeof e.status === 'number') return `HTTP ${e.status} from the API or a gateway`;
  // Recovery wraps the client's error (apply/create-once.ts): the cause says what happened.
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== err) return lostCause(cause);
  return 'the answer was lost';
}
