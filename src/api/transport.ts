// One API call from the client's point of view: authenticate, wait for a slot in the
// adaptive limiter, send with undici, decide with the retry policy, retry or
// fail with an ApiError, and check the body's shape. Resource methods (client.ts) only say
// which method, path, body and response shape they expect.

import type { Dispatcher } from 'undici';
import { request } from './undici-lite.js';
import { displayUrl } from './display-url.js';
import { ApiError, ResponseShapeError, type ServerError } from './errors.js';
import { retryDecision, parseRetryAfter, retryDelay, type AttemptResult, type RetryPolicy } from './retry.js';
import type { AdaptiveLimiter } from './limiter.js';
import type { Auth } from './auth.js';
import { shapeProblem, type Shape } from './validate-response.js';
import { inert } from '../text/inert.js';

export interface RetryInfo {
  method: string;
  path: string;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  delayMs: number;
  /** `429`, `503`, `ECONNRESET`, `401 (logging in again)`... */
  reason: string;
}

export interface TransportOptions {
  baseUrl: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  policy: RetryPolicy;
  limiter: AdaptiveLimiter;
  auth: Auth;
  userAgent: string;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  onRetry?: (info: RetryInfo) => void;
  stats: { requests: number; retries: number };
  /**
   * Aborted when the client is closed: calls still waiting to retry (or queued behind a failed
   * one) give up at once instead of sending again. A run that already failed, or was
   * interrupted, then ends without waiting out their backoff.
   */
  closed?: AbortSignal;
  /**
   * The run's interrupt (the first SIGINT/SIGTERM, as apply passes it on): requests in flight
   * are cancelled too, not only calls waiting to be sent. Aborting it also aborts `closed`.
   */
  cancel?: AbortSignal;
  /**
   * Most time one GET may take in all, from its first attempt being sent to giving up: each
   * attempt's wait for an answer and the waits between attempts included (docs/api.md "Client").
   * Without it, an API that accepts connections and never answers held a plan for ~320 s
   * (10 attempts of 30 s). Writes are bounded by the retry policy alone, and by the interrupt.
   */
  readWaitMs?: number;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** Expected shape of a 2xx body; null: the body is not read as JSON. */
  shape: Shape | null;
  /** Statuses handed back to the caller instead of thrown (e.g. 404 -> null). */
  passThrough?: readonly number[];
  /** `none` for the login call itself. */
  auth?: 'send' | 'none';
  /** A POST that creates nothing (login): safe to send again like an idempotent request. */
  repeatable?: boolean;
}

export interface Reply {
  status: number;
  body: unknown;
}

type Sent = { kind: 'status'; status: number; text: string; retryAfter: string | null } | { kind: 'network'; code: string };

/** Network codes of our own: the run's interrupt cancelled the request; a read's time ran out. */
const CANCELLED = 'MENUCTL_CANCELLED';
const OUT_OF_TIME = 'MENUCTL_READ_WAIT';

/** The clock of one call against its bound (readWaitMs), started when its first attempt is sent. */
interface Clock {
  bound: number;
  startedAt: number | undefined;
  tries: number;
}

const left = (t: TransportOptions, c: Clock): number => (c.startedAt === undefined ? c.bound : c.bound - (t.now() - c.startedAt));

export async function send(t: TransportOptions, call: Call): Promise<Reply> {
  let token = call.auth === 'none' ? null : await t.auth.current();
  let relogged = false;
  // Attempts that failed with something other than 429, and the time spent waiting to retry.
  let failures = 0;
  let waitedMs = 0;
  const clock: Clock = { bound: call.method === 'GET' ? t.readWaitMs ?? Infinity : Infinity, startedAt: undefined, tries: 0 };
  for (let attempt = 1; ; attempt++) {
    t.closed?.throwIfAborted();
    const sent = await once(t, call, token, clock);
    if (sent.kind === 'network' && sent.code === CANCELLED) throw cancelled(call, t.baseUrl);
    if (sent.kind === 'network' && sent.code === OUT_OF_TIME) throw outOfTime(t, call, clock, sent);
    if (sent.kind === 'status' && sent.status === 401 && !relogged && call.auth !== 'none' && t.auth.canLogin) {
      // An expired token mid-run: log in again once, then repeat the same request.
      relogged = true;
      t.stats.retries++;
      t.onRetry?.({ method: call.method, path: call.path, attempt, delayMs: 0, reason: '401 (logging in again)' });
      token = await t.auth.renew(token);
      continue;
    }
    if (sent.kind === 'status' && (ok(sent.status) || call.passThrough?.includes(sent.status))) {
      return { status: sent.status, body: ok(sent.status) ? parseBody(call, sent) : undefined };
    }
    const result: AttemptResult = sent.kind === 'network'
      ? sent
      : { kind: 'status', status: sent.status, retryAfter: sent.retryAfter };
    const verdict = retryDecision(call.method, result, call.repeatable || undefined);
    const throttled = result.kind === 'status' && result.status === 429;
    if (!throttled) failures++;
    const delayMs = retryDelay({ retry: attempt - 1, result, policy: t.policy, random: t.random, now: t.now() });
    if (verdict.retry && failures < t.policy.maxAttempts && waitedMs + delayMs <= t.policy.budgetMs) {
      // A retry that could not be answered before the read's bound is not sent: give up now.
      if (delayMs >= left(t, clock)) throw outOfTime(t, call, clock, sent);
      if (throttled) pauseRun(t, result);
      waitedMs += delayMs;
      t.stats.retries++;
      t.onRetry?.({ method: call.method, path: call.path, attempt, delayMs, reason: sent.kind === 'network' ? sent.code : String(sent.status) });
      await t.sleep(delayMs);
      continue;
    }
    throw failure({ call, sent, outcome: verdict.outcome, transient: verdict.transient, baseUrl: t.baseUrl });
  }
}

/** A 429's Retry-After holds back every request of this client, not only the one refused. */
function pauseRun(t: TransportOptions, result: AttemptResult): void {
  if (result.kind !== 'status') return;
  const now = t.now();
  const after = parseRetryAfter(result.retryAfter, now);
  if (after !== null) t.limiter.pause(now + Math.min(after, t.policy.retryAfterCapMs));
}

const ok = (status: number): boolean => status >= 200 && status < 300;

async function once(t: TransportOptions, call: Call, token: string | null, clock: Clock): Promise<Sent> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': t.userAgent };
  if (token !== null) headers.authorization = token;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  let permit = await t.limiter.acquire();
  try {
    // A call that queued for its slot while the client was closed is not sent.
    t.closed?.throwIfAborted();
    // Checked once the slot is ours: a 429 that came while this request queued for it pauses it too.
    const paused = t.limiter.pausedFor(t.now());
    if (paused > 0) {
      await t.sleep(paused);
      t.closed?.throwIfAborted();
      permit = t.limiter.restamp(permit); // the pause is not the server's latency
    }
  } catch (e) {
    t.limiter.release(permit, 'other');
    throw e;
  }
  const remaining = left(t, clock);
  if (remaining <= 0) {
    t.limiter.release(permit, 'other');
    return { kind: 'network', code: OUT_OF_TIME };
  }
  clock.startedAt ??= t.now();
  clock.tries++;
  const ending = attemptEnd(t.cancel, remaining);
  let sent: Sent;
  try {
    t.stats.requests++;
    const res = await request(t.baseUrl + call.path, {
      method: call.method, headers, body, dispatcher: t.dispatcher,
      headersTimeout: t.timeoutMs, bodyTimeout: t.timeoutMs,
      ...(ending ? { signal: ending.signal } : {}),
    });
    const text = await res.body.text();
    const retryAfter = res.headers['retry-after'];
    sent = { kind: 'status', status: res.statusCode, text, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] ?? null : retryAfter ?? null };
  } catch (err) {
    const code = t.cancel?.aborted ? CANCELLED : ending?.timedOut() ? OUT_OF_TIME : networkCode(err);
    sent = { kind: 'network', code };
  } finally {
    ending?.dispose();
  }
  t.limiter.release(permit, sent.kind === 'status' && sent.status === 429 ? 'throttled' : sent.kind === 'status' && ok(sent.status) ? 'ok' : 'other');
  return sent;
}

/**
 * What ends one attempt early: the read's bound (`ms`), or the run's interrupt at once. Its own
 * controller and timer, let go when the attempt ends: AbortSignal.any and AbortSignal.timeout
 * would leave one listener or timer per request on a run's long-lived signal.
 */
function attemptEnd(cancel: AbortSignal | undefined, ms: number) {
  if (!cancel && !Number.isFinite(ms)) return null;
  const ending = new AbortController();
  let timedOut = false;
  const onCancel = () => ending.abort();
  cancel?.addEventListener('abort', onCancel, { once: true });
  if (cancel?.aborted) ending.abort();
  const timer = Number.isFinite(ms) ? setTimeout(() => { timedOut = true; ending.abort(); }, ms) : undefined;
  return {
    signal: ending.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    },
  };
}

function networkCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; name?: string };
  // undici wraps some socket errors; the cause carries the OS code when there is one.
  if (e?.code === 'UND_ERR_SOCKET' && typeof e.cause?.code === 'string') return e.cause.code;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return e?.name === 'AbortError' ? 'UND_ERR_ABORTED' : 'ENETWORK';
}

const FIRST_READS = new Set(['/api/actions', '/api/world_operators', '/api/apps']);

function parseBody(call: Call, sent: Extract<Sent, { kind: 'status' }>): unknown {
  if (call.shape === null) return undefined;
  // A write that answered 2xx happened, whatever its body looks like.
  const outcome = call.method === 'POST' ? 'unknown' : 'failed';
  let json: unknown;
  try {
    json = JSON.parse(sent.text);
  } catch {
    throw new ResponseShapeError({
      method: call.method, path: call.path, status: sent.status, outcome,
      problem: `${sent.status} response is not valid JSON (${inert(JSON.stringify(sent.text.slice(0, 60)))})`,
    });
  }
  const problem = shapeProblem(call.shape, json);
  if (problem !== null) {
    // The lists are the first answers a run reads: a wrong shape there is most often a URL that
    // is some other service's. Not on a later page (its path has the link's query), nor when an
    // item before the wrong one had this API's shape: that server is the API, and the hint to
    // check the URL would send the reader the wrong way.
    const first = call.method === 'GET' && FIRST_READS.has(call.path) && !/^data\[[1-9]\d*\]/.test(problem);
    throw new ResponseShapeError({
      method: call.method, path: call.path, status: sent.status, outcome,
      problem: first ? `${problem}: this is not an answer of the Mobile Menu Automation API as specified (check --api-url / MENUCTL_API_URL)` : problem,
    });
  }
  return json;
}

/**
 * A request the run's interrupt cancelled. A POST may have reached the server before it was
 * cancelled: its outcome is unknown, as for a lost answer, and the next plan looks it up.
 */
function cancelled(call: Call, baseUrl: string): ApiError {
  const unknown = call.method === 'POST' && !call.repeatable;
  return new ApiError({
    method: call.method, path: call.path, status: null, outcome: unknown ? 'unknown' : 'failed', retryable: true,
    networkCode: 'UND_ERR_ABORTED', baseUrl: displayUrl(baseUrl),
    explanation: `cancelled by the interrupt before ${displayUrl(baseUrl)} answered` +
      (unknown ? ' (the request was sent; whether the server acted on it is unknown)' : ''),
  });
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * A GET that ran out of its bound (readWaitMs): the message says how long, over how many tries,
 * and what the last one got, so "the API never answered" reads differently from "it kept failing".
 */
function outOfTime(t: TransportOptions, call: Call, clock: Clock, last: Sent): ApiError {
  const url = displayUrl(t.baseUrl);
  const tries = `${clock.tries} ${clock.tries === 1 ? 'try' : 'tries'}`;
  const bound = `a read waits at most ${seconds(clock.bound)} in all; MENUCTL_READ_TIMEOUT sets it`;
  const silent = last.kind === 'network' && (last.code === OUT_OF_TIME || /TIMEOUT|ETIMEDOUT/.test(last.code));
  if (silent) {
    return new ApiError({
      method: call.method, path: call.path, status: null, outcome: 'failed', retryable: true, networkCode: 'UND_ERR_HEADERS_TIMEOUT',
      baseUrl: url, explanation: `no answer from ${url} in ${seconds(clock.bound)} over ${tries} (${bound})`,
    });
  }
  const failed = failure({ call, sent: last, outcome: 'failed', transient: true, baseUrl: t.baseUrl });
  const said = failed.message.slice(`${call.method} ${call.path}: `.length);
  return new ApiError({
    method: call.method, path: call.path, status: failed.status, outcome: 'failed', retryable: true, errors: failed.errors,
    ...(failed.networkCode ? { networkCode: failed.networkCode } : {}), baseUrl: url,
    explanation: `${said}; gave up after ${tries} (${bound})`,
  });
}

interface Failure {
  call: Call;
  sent: Sent;
  outcome: 'failed' | 'unknown';
  transient: boolean;
  baseUrl: string;
}

function failure({ call, sent, outcome, transient, baseUrl }: Failure): ApiError {
  if (sent.kind === 'network') {
    return new ApiError({
      method: call.method, path: call.path, status: null, outcome, retryable: transient, networkCode: sent.code,
      baseUrl: displayUrl(baseUrl),
    });
  }
  return new ApiError({
    method: call.method, path: call.path, status: sent.status, outcome, retryable: transient,
    errors: serverErrors(sent.text), baseUrl: displayUrl(baseUrl),
  });
}

function serverErrors(text: string): ServerError[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (shapeProblem({ body: 'error' }, json) !== null) return [];
  const errors = (json as { errors: Record<string, unknown>[] }).errors;
  return errors.map((e) => ({
    status: e.status as string | number | undefined,
    code: e.code as string | undefined,
    title: e.title as string | undefined,
    detail: e.detail as string | undefined,
    pointer: (e.source as { pointer?: string } | undefined)?.pointer,
  }));
}
