// The ApiClient (src/model/api-client.ts) over HTTP: each method is a path, a body built by
// model/payload.ts, and the shape its answer must have. Retries, auth, the adaptive limit
// and response checks live in transport.ts and the small files it uses.

import { setTimeout as sleep } from 'node:timers/promises';
import { ClientClosedError } from './errors.js';
import type { Dispatcher } from 'undici';
import { createAgent } from './undici-lite.js';
import type { ApiClient } from './types.js';
import { Auth, organizationFromToken, type Credentials } from './auth.js';
import { AdaptiveLimiter } from './limiter.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { loopingLink, MAX_PAGES, nextLink, nextPath } from './pages.js';
import { send, type Call, type RetryInfo, type TransportOptions } from './transport.js';
import {
  actionBody, appBody, appPatchBody, appSecrets, fromApiAction, fromApiApp, fromApiOperator,
  fromApiParser, parserBody, parserPatchBody,
} from '../model/payload.js';
import type { ResolvedAction } from '../model/types.js';
import type { ResolvedApp, ResolvedParser } from '../model/types.js';
import type { ResourceSchema } from './validate-response.js';

export interface ClientOptions extends Credentials {
  baseUrl: string;
  /** Most requests in flight at once (also the connection pool size). Default 8. */
  concurrency?: number;
  /**
   * Latency-aware concurrency (`--concurrency auto`): start at this many in flight and grow
   * towards `concurrency` while the server's latency stays flat (limiter.ts).
   */
  startConcurrency?: number;
  /** Per-request timeout for the response headers and for the body, in ms. Default 30 s. */
  timeoutMs?: number;
  /** Most time one GET takes in all, retries included (transport.ts readWaitMs). Default 60 s. */
  readWaitMs?: number;
  /**
   * The run's interrupt: once aborted, requests in flight are cancelled (a POST's outcome is
   * then unknown), waits end and nothing more is sent. close() alone lets requests in flight finish.
   */
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  /** For tests: undici MockAgent, or a shared Agent. The client then does not close it. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  onRetry?: (info: RetryInfo) => void;
  /** For tests: the jitter source and the wait between attempts. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export type { RetryInfo };

/** A read's total wait, all its attempts and the pauses between them (docs/api.md "Client"). */
export const DEFAULT_READ_WAIT_MS = 60_000;
export { ClientClosedError };

type Resource = { id: string | number; attributes: Record<string, unknown> };
type One = { data: Resource };
type List = { data: Resource[] };

const enc = encodeURIComponent;

export function createClient(options: ClientOptions): ApiClient {
  const concurrency = options.concurrency ?? 8;
  const ownDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? createAgent({
    connections: concurrency,
    keepAliveTimeout: 10_000,
    connect: { timeout: options.timeoutMs ?? 30_000 },
  });
  const stats = { requests: 0, retries: 0 };
  let closed = false;
  const closing = new AbortController();
  // One signal for "send nothing more": the client closed, or the run interrupted.
  const cancel = interruptOf(options.signal);
  const stop = cancel ? AbortSignal.any([closing.signal, cancel]) : closing.signal;
  const t: TransportOptions = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    dispatcher,
    timeoutMs: options.timeoutMs ?? 30_000,
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    limiter: new AdaptiveLimiter(concurrency, options.startConcurrency === undefined ? {} : { start: options.startConcurrency }),
    auth: undefined as unknown as Auth,
    userAgent: options.userAgent ?? 'menuctl',
    random: options.random ?? Math.random,
    sleep: options.sleep ?? ((ms) => sleepUnlessClosed(ms, stop)),
    now: options.now ?? Date.now,
    onRetry: options.onRetry,
    stats,
    closed: stop,
    ...(cancel ? { cancel } : {}),
    readWaitMs: options.readWaitMs ?? DEFAULT_READ_WAIT_MS,
  };
  t.auth = new Auth(options, async (email, password) => {
    const reply = await send(t, {
      method: 'POST', path: '/api/authenticate', body: { email, password },
      shape: { body: 'authenticate' }, auth: 'none', repeatable: true,
    });
    return (reply.body as { auth_token: string }).auth_token;
  });

  const call = (c: Call) => send(t, c);
  const one = async (c: Call & { shape: { one: ResourceSchema } }) => ((await call(c)).body as One).data;
  /** Every page of a list (links.next, pages.ts); `first` is the first page's answer when already read. */
  const many = async (c: Call, first?: List): Promise<Resource[]> => {
    const out: Resource[] = [];
    const seen = new Set<string>([c.path]);
    let path = c.path;
    let body = first ?? ((await call(c)).body as List);
    for (;;) {
      for (const r of body.data) out.push(r); // not push(...data): a page may be very long
      const next = nextLink(body);
      if (next === null) return out;
      const following = nextPath(t.baseUrl, path, next);
      if (seen.has(following) || seen.size >= MAX_PAGES) throw loopingLink(path, next);
      seen.add(following);
      path = following;
      body = (await call({ ...c, path })).body as List;
    }
  };
  /** GET of one resource; null on 404 (missing, or another organization's). */
  const find = async (path: string, schema: ResourceSchema): Promise<Resource | null> => {
    const reply = await call({ method: 'GET', path, shape: { one: schema }, passThrough: [404] });
    return reply.status === 404 ? null : (reply.body as One).data;
  };
  const archive = async (path: string) => {
    await call({ method: 'DELETE', path, shape: { body: 'archived' } });
  };

  return {
    async organizationId() {
      const token = await t.auth.current();
      return token === null ? null : organizationFromToken(token);
    },

    listActions: async () => (await many({ method: 'GET', path: '/api/actions', shape: { list: 'action' } })).map(fromApiAction),
    getAction: async (id) => nullable(await find(`/api/actions/${enc(id)}`, 'action'), fromApiAction),
    listParsers: async (actionId) =>
      (await many({ method: 'GET', path: `/api/actions/${enc(actionId)}/parsers`, shape: { list: 'parser' } })).map(fromApiParser),
    getParser: async (id) => nullable(await find(`/api/parsers/${enc(id)}`, 'parser'), fromApiParser),
    async listApps() {
      // GET /api/apps is an extension of the reference server; other servers answer 404/405.
      const c: Call = { method: 'GET', path: '/api/apps', shape: { list: 'app' }, passThrough: [404, 405] };
      const reply = await call(c);
      return reply.status === 404 || reply.status === 405 ? null : (await many(c, reply.body as List)).map(fromApiApp);
    },
    getApp: async (id) => nullable(await find(`/api/apps/${enc(id)}`, 'app'), fromApiApp),
    listOperators: async () =>
      (await many({ method: 'GET', path: '/api/world_operators', shape: { list: 'world-operator' } })).map(fromApiOperator),

    createAction: async (spec: ResolvedAction) =>
      fromApiAction(await one({ method: 'POST', path: '/api/actions', body: actionBody(spec), shape: { one: 'action' } })),
    async updateAction(id, spec) {
      // Spec: "Response body of PATCH action: not shown": whatever comes back is not read.
      await call({ method: 'PATCH', path: `/api/actions/${enc(id)}`, body: actionBody(spec), shape: null });
    },
    archiveAction: (id) => archive(`/api/actions/${enc(id)}`),
    restoreAction: async (id) =>
      fromApiAction(await one({ method: 'PUT', path: `/api/actions/${enc(id)}/restore`, shape: { one: 'action' } })),

    createParser: async (actionId: string, spec: ResolvedParser) =>
      fromApiParser(await one({ method: 'POST', path: '/api/parsers', body: parserBody(actionId, spec), shape: { one: 'parser' } })),
    updateParser: async (id, spec) =>
      fromApiParser(await one({ method: 'PATCH', path: `/api/parsers/${enc(id)}`, body: parserPatchBody(spec), shape: { one: 'parser' } })),
    archiveParser: (id) => archive(`/api/parsers/${enc(id)}`),
    restoreParser: async (id) =>
      fromApiParser(await one({ method: 'PUT', path: `/api/parsers/${enc(id)}/restore`, shape: { one: 'parser' } })),

    async createApp(spec: ResolvedApp) {
      const data = await one({ method: 'POST', path: '/api/apps', body: appBody(spec), shape: { one: 'app-created' } });
      return { app: fromApiApp(data), secrets: appSecrets(data) };
    },
    // 'app-created' requires the token: a server that leaves it out of GET is a shape error,
    // which apply reports as secrets not captured rather than writing an empty token.
    getAppWithSecrets: async (id) => nullable(await find(`/api/apps/${enc(id)}`, 'app-created'), (data) => ({ app: fromApiApp(data), secrets: appSecrets(data) })),
    updateApp: async (id, spec: Partial<ResolvedApp>) =>
      fromApiApp(await one({ method: 'PATCH', path: `/api/apps/${enc(id)}`, body: appPatchBody(spec), shape: { one: 'app' } })),
    archiveApp: (id) => archive(`/api/apps/${enc(id)}`),
    restoreApp: async (id) =>
      fromApiApp(await one({ method: 'PUT', path: `/api/apps/${enc(id)}/restore`, shape: { one: 'app' } })),

    stats,
    async close() {
      closing.abort(new ClientClosedError());
      if (ownDispatcher && !closed) {
        closed = true;
        await dispatcher.close();
      }
    },
  };
}

/** A wait that ends, with the ClientClosedError, as soon as the client is closed or the run interrupted. */
async function sleepUnlessClosed(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (e) {
    throw signal.aborted ? closedReason(signal) : e;
  }
}

/** The run's interrupt reason is a signal name: callers get the ClientClosedError either way. */
function closedReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new ClientClosedError();
}

/** The run's signal as one whose reason is a ClientClosedError (throwIfAborted throws the reason). */
function interruptOf(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  const interrupt = new AbortController();
  const reason = () => new ClientClosedError('interrupted: this call was not sent (again)');
  if (signal.aborted) interrupt.abort(reason());
  else signal.addEventListener('abort', () => interrupt.abort(reason()), { once: true });
  return interrupt.signal;
}

function nullable<T>(resource: Resource | null, convert: (r: Resource) => T): T | null {
  return resource === null ? null : convert(resource);
}
