// One request, start to finish: faults, routing, rate limit, auth, body, handler, answer, log.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken } from './auth.js';
import { HttpError, httpError } from './errors.js';
import type { Faults } from './faults.js';
import { readJson, sendError, sendJson } from './http-io.js';
import type { Router, ServerState } from './router.js';

export interface HandlerDeps {
  router: Router;
  state: ServerState;
  faults: Faults;
  stats: { requests: number; byRoute: Record<string, number> };
  log?: (line: string) => void;
  /** true once shutdown began: answers carry Connection: close. */
  closing: () => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createHandler(d: HandlerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
      if (d.faults.latencyMs > 0) await sleep(d.faults.latencyMs);
      if (d.faults.shouldFail()) throw httpError(503, 'unavailable', 'injected failure (--fail-rate): retry later');
      if (!match) throw httpError(404, 'not_found', `no route for ${path}`);
      const route = match.route;
      if (!route) {
        throw new HttpError(405, [{ code: 'method_not_allowed', detail: `${method} is not allowed on ${match.pattern}; allowed: ${match.allow.join(', ')}` }],
          { Allow: match.allow.join(', ') });
      }
      const retryAfter = d.faults.limited(req.headers.authorization ?? `addr:${req.socket.remoteAddress}`);
      if (retryAfter !== null) {
        throw new HttpError(429, [{ code: 'rate_limited', detail: `rate limit reached: retry after ${retryAfter} s` }],
          { 'Retry-After': String(retryAfter) });
      }
      const org = route.auth ? await d.state.tokens.verify(bearerToken(req.headers.authorization)) : 0;
      const body = route.body ? await readJson(req) : undefined;
      const reply = await route.handle({ org, params: match.params, query, body, state: d.state });
      if (route.write && d.faults.shouldReset()) {
        // Committed, never answered: the ambiguous failure clients must survive (--reset-rate).
        req.socket.destroy();
        return;
      }
      sendJson(res, reply.status, reply.body);
    } catch (err) {
      if (res.headersSent || req.socket.destroyed) return;
      if (err instanceof HttpError) {
        sendError(res, err);
      } else {
        process.stderr.write(`menuctl api: internal error on ${method} ${path}: ${(err as Error)?.stack ?? String(err)}\n`);
        sendError(res, httpError(500, 'internal_error', 'the server failed to handle the request; see its log'));
      }
    }
  };
}
