// A small path router: patterns like /api/actions/:id, one trailing slash ignored, 405 with the
// methods a path does allow.

import type { WorldOperator } from '../model/types.js';
import type { Accounts } from './passwords.js';
import type { LoginThrottle } from './login-throttle.js';
import type { TokenAuthority } from './auth.js';
import type { Db } from './db.js';
import type { CanonicalQuery, ListOptions } from './lists.js';
import { httpError, HttpError } from './errors.js';
import type { ActionStore } from './store-actions.js';
import type { AppStore } from './store-apps.js';
import type { ParserStore } from './store-parsers.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Everything a handler may use: stores, the catalog, accounts and tokens. */
export interface ServerState {
  db: Db;
  actions: ActionStore;
  parsers: ParserStore;
  apps: AppStore;
  catalog: readonly WorldOperator[];
  catalogById: ReadonlyMap<number, WorldOperator>;
  accounts: Accounts;
  /** Failed logins per client address (POST /api/authenticate). */
  logins: LoginThrottle;
  tokens: TokenAuthority;
  /** Spec-only mode and paging (lists.ts). */
  lists: ListOptions;
}

export interface RouteRequest {
  /** The token's organization (0 on public routes). */
  org: number;
  params: Record<string, string>;
  /**
   * The query parameters the route understands (Route.query), canonical. Routes see nothing
   * else of the query string: what they answer depends on this alone, which is what lets the
   * answer cache key on it.
   */
  understood: CanonicalQuery;
  /** The client's address as limits count it (client-address.ts). */
  client: string;
  body: unknown;
  state: ServerState;
}

export interface Reply {
  status: number;
  body: unknown;
}

export interface Route {
  method: Method;
  pattern: string;
  /** false only for the public routes (world_operators, authenticate). */
  auth: boolean;
  /** true for routes that read a JSON body (POST, PATCH). */
  body: boolean;
  /** Also take form bodies, multipart or urlencoded (POST /api/authenticate: see form-body.ts). */
  forms?: boolean;
  /** true when the route writes (fault injection: --reset-rate drops the answer after these). */
  write: boolean;
  /**
   * The query parameters this route understands: validated (a bad one is a 400), in a fixed
   * order, defaults filled (lists.ts). Absent: none; the query string is ignored.
   */
  query?: (query: URLSearchParams, state: ServerState) => CanonicalQuery;
  handle(req: RouteRequest): Reply | Promise<Reply>;
}

export interface Match {
  pattern: string;
  route?: Route;
  allow: Method[];
  params: Record<string, string>;
}

export class Router {
  private readonly byPattern = new Map<string, { segments: string[]; routes: Route[] }>();

  constructor(routes: readonly Route[]) {
    for (const r of routes) {
      let entry = this.byPattern.get(r.pattern);
      if (!entry) {
        entry = { segments: r.pattern.split('/').slice(1), routes: [] };
        this.byPattern.set(r.pattern, entry);
      }
      entry.routes.push(r);
    }
  }

  /** undefined when no pattern matches the path (404). */
  match(method: string, path: string): Match | undefined {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const parts = trimmed.split('/').slice(1);
    for (const [pattern, entry] of this.byPattern) {
      const params = matchSegments(entry.segments, parts);
      if (!params) continue;
      return {
        pattern,
        route: entry.routes.find((r) => r.method === method),
        allow: entry.routes.map((r) => r.method),
        params,
      };
    }
    return undefined;
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(':')) {
      if (parts[i] === '') return undefined;
      try {
        params[p.slice(1)] = decodeURIComponent(parts[i]!);
      } catch {
        return undefined;
      }
    } else if (p !== parts[i]) {
      return undefined;
    }
  }
  return params;
}

/** A numeric id path parameter; anything else is simply not found. */
export function numericId(raw: string, what: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw httpError(404, 'not_found', `${what} ${raw} not found`);
  return Number(raw);
}

export { HttpError };
