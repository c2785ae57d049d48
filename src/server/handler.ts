// One request, start to finish: faults, routing, identity, rate limit, body, handler, answer, log.
// Nothing a client sends may escape as an exception: the request's own errors become JSON
// answers, and whatever is left (a bug) is logged and costs only that connection.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { bearerToken, type Identity } from './auth.js';
import { HttpError, httpError } from './errors.js';
import type { Faults } from './faults.js';
import type { AnswerCache } from './answer-cache.js';
import { clientAddress } from './client-address.js';
import { queryString } from './lists.js';
import { ClientGone, discardRest, readJson, sendBytes, sendError, sendJson } from './http-io.js';
import type { Match, Router, ServerState } from './router.js';
import { readJsonOrForm } from './form-body.js';

/** Requests answered, by route (`GET /api/actions/:id`), and those answered from the cache. */
export interface ServerStats {
  requests: number;
  byRoute: Record<string, number>;
  cacheHits: number;
  /** Rows read from the database by list queries (Statements.rowsRead): a page costs its own rows. */
  rowsRead: number;
}

/** Fresh counters. */
export const emptyStats = (): ServerStats => ({ requests: 0, byRoute: {}, cacheHits: 0, rowsRead: 0 });

export interface HandlerDeps {
  router: Router;
  /** Large GET answers per organization, path and query; absent: every answer is made afresh. */
  cache?: AnswerCache;
  state: ServerState;
  faults: Faults;
  /** What the tests read: requests, by route, and those answered from the cache. */
  stats: ServerStats;
  log?: (line: string) => void;
  /** true once shutdown began: answers carry Connection: close. */
  closing: () => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createHandler(d: HandlerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Held from the start: req.socket is null once the connection is gone.
    const socket = req.socket;
    try {
      await handle(d, req, res, socket);
    } catch (err) {
      process.stderr.write(`menuctl api: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
      socket.destroy();
    }
  };
}

async function handle(d: HandlerDeps, req: IncomingMessage, res: ServerResponse, socket: Socket): Promise<void> {
  const started = performance.now();
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  // The log and the stats see the path only: a query string could carry anything.
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  let outcome = 'RESET';
  res.once('finish', () => { outcome = String(res.statusCode); });
  res.once('close', () => {
    d.log?.(`${new Date().toISOString()} ${method} ${path} ${outcome} ${(performance.now() - started).toFixed(1)}ms`);
  });
  d.stats.requests++;
  const match = d.router.match(method, path);
  if (match) {
    const key = `${method} ${match.pattern}`;
    d.stats.byRoute[key] = (d.stats.byRoute[key] ?? 0) + 1;
  }
  if (d.closing()) res.setHeader('Connection', 'close');
  try {
    await d.faults.delay(sleep);
    if (d.faults.shouldFail()) throw httpError(503, 'unavailable', 'injected failure (--fail-rate): retry later');
    const route = routeOf(match, method, path);
    const org = await identify(d, req, route.auth, socket);
    const understood = route.query?.(query, d.state) ?? [];
    // Keyed by organization (an answer is never served to another tenant), then by what the
    // answer depends on: the route, its path parameters and the query it understands, canonical.
    // `/api/actions/`, `?page=1` or `?x=123` is the same answer as `/api/actions`, not another to keep.
    const cacheKey = d.cache && method === 'GET' && route.auth
      ? `${org} ${match!.pattern} ${JSON.stringify(match!.params)} ${queryString(understood)}`
      : undefined;
    const kept = cacheKey === undefined ? undefined : d.cache!.get(cacheKey);
    if (kept) {
      d.stats.cacheHits++;
      sendBytes(res, 200, kept);
      return;
    }
    const body = !route.body ? undefined : route.forms ? await readJsonOrForm(req) : await readJson(req);
    const version = cacheKey === undefined ? '' : d.cache!.version();
    const reply = await route.handle({ org, params: match!.params, understood, client: clientAddress(socket.remoteAddress), body, state: d.state });
    if (route.write && d.faults.shouldReset()) {
      // Committed, never answered: the ambiguous failure clients must survive (--reset-rate).
      socket.destroy();
      return;
    }
    if (reply.body === undefined) {
      sendJson(res, reply.status, undefined); // 204: no body (spec-only PATCH of an action)
      return;
    }
    const bytes = Buffer.from(JSON.stringify(reply.body));
    if (cacheKey !== undefined && reply.status === 200) d.cache!.set(cacheKey, bytes, version);
    sendBytes(res, reply.status, bytes);
  } catch (err) {
    if (res.headersSent || res.destroyed || socket.destroyed || err instanceof ClientGone) return;
    if (err instanceof HttpError) {
      sendError(res, err);
    } else {
      process.stderr.write(`menuctl api: internal error on ${method} ${path}: ${(err as Error)?.stack ?? String(err)}\n`);
      sendError(res, httpError(500, 'internal_error', 'the server failed to handle the request; see its log'));
    }
  } finally {
    // An answer given before the body was read (413, 401, 404...): drop the rest, within bounds.
    discardRest(req, () => socket.destroy());
  }
}

function routeOf(match: Match | undefined, method: string, path: string) {
  if (!match) throw httpError(404, 'not_found', `no route for ${path}`);
  if (!match.route) {
    throw new HttpError(405, [{ code: 'method_not_allowed', detail: `${method} is not allowed on ${match.pattern}; allowed: ${match.allow.join(', ')}` }],
      { Allow: match.allow.join(', ') });
  }
  return match.route;
}

/**
 * The token's organization (0 on public routes), rate-limited on who the caller is once
 * verified: the token by its claims, never the header's text (spellings of one token share
 * one budget). A caller without a valid token is limited by its address, then refused (401).
 */
async function identify(d: HandlerDeps, req: IncomingMessage, auth: boolean, socket: Socket): Promise<number> {
  let who: Identity | undefined;
  let refused: unknown;
  if (auth) {
    try {
      who = await d.state.tokens.identify(bearerToken(req.headers.authorization));
    } catch (err) {
      refused = err;
    }
  }
  const retryAfter = d.faults.limited(who ? `token:${who.subject}` : `addr:${socket.remoteAddress ?? ''}`);
  if (retryAfter !== null) {
    throw new HttpError(429, [{ code: 'rate_limited', detail: `rate limit reached: retry after ${retryAfter} s` }],
      { 'Retry-After': String(retryAfter) });
  }
  if (refused !== undefined) throw refused;
  return who?.org ?? 0;
}
