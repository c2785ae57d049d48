// The reference server of the Mobile Menu Automation API (docs/api.md): node:http, SQLite,
// HS256 JWTs. startServer is used by `menuctl serve`, `menuctl demo` and the integration tests.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundledCatalog } from '../fs/catalog-file.js';
import { AnswerCache } from './answer-cache.js';
import { onCheckExpectation, onClientError, onConnect } from './client-error.js';
import { capConnectionsPerClient, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from './connection-cap.js';
import { TokenAuthority } from './auth.js';
import { dataDirectoryProblem } from './data-path.js';
import { type Db, openDb, Statements } from './db.js';
import { Faults } from './faults.js';
import { DEFAULT_PAGE_SIZE } from './lists.js';
import { createHandler, emptyStats, type ServerStats } from './handler.js';
import { resolveJwtSecret } from './jwt-secret.js';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle } from './login-throttle.js';
import { Accounts, type UserSpec } from './passwords.js';
import { Router, type ServerState } from './router.js';
import { actionRoutes } from './routes/actions.js';
import { appRoutes } from './routes/apps.js';
import { parserRoutes } from './routes/parsers.js';
import { publicRoutes } from './routes/public.js';
import { ActionStore } from './store-actions.js';
import { AppStore } from './store-apps.js';
import { ParserStore } from './store-parsers.js';

export interface ServerOptions {
  host?: string;
  port?: number;
  /** SQLite file, or ':memory:'. */
  data: string;
  /** HS256 secret; when absent, one is kept beside the database (`<data>.jwt-secret`). */
  jwtSecret?: string;
  users?: UserSpec[];
  latencyMs?: number;
  failRate?: number;
  resetRate?: number;
  rateLimit?: number;
  /** Deterministic fault injection for tests. */
  faultSeed?: number;
  /** At most N requests spend --latency at once; the rest queue (faults.ts). */
  capacity?: number;
  /**
   * Only what the spec shows (docs/api.md, Spec-only mode): no GET /api/apps, no `meta`, no
   * `?archived=`, PATCH of an action answers 204 without a body.
   */
  specOnly?: boolean;
  /** Most items per list answer (`links.next` to the rest). Default: 1000 in full mode, none in spec-only. */
  pageSize?: number;
  /** Access log sink: one line per request; none when absent. */
  log?: (line: string) => void;
  /**
   * Failed logins allowed per client address, refilled at this many per loginWindowS, then 429
   * (login-throttle.ts). Default 10; 0 turns the throttle off.
   */
  loginAttempts?: number;
  /** The window of loginAttempts, in seconds. Default 60. */
  loginWindowS?: number;
  /**
   * Most connections one client address may hold open; more are closed on arrival
   * (connection-cap.ts). Default 256.
   */
  maxConnectionsPerClient?: number;
  /** Longest time a request may take to arrive whole (headers and body), then 408. Default 60 s. */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Graceful: stop accepting, finish in-flight requests, close the database. */
  close(): Promise<void>;
  stats(): ServerStats;
  resetStats(): void;
  mintToken(org: number, expiresIn?: string): Promise<string>;
}

/** How long close() waits for in-flight requests before cutting connections. */
const DRAIN_MS = 10_000;

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const problem = dataDirectoryProblem(o.data);
  if (problem !== null) throw new Error(problem);
  const db = openDb(o.data);
  try {
    return await serve(o, db);
  } catch (err) {
    // Nothing else holds the handle yet: leaving it open would keep the file (and its WAL) locked.
    db.close();
    throw err;
  }
}

async function serve(o: ServerOptions, db: Db): Promise<RunningServer> {
  const st = new Statements(db);
  const catalog = bundledCatalog();
  const tokens = new TokenAuthority(o.jwtSecret ?? resolveJwtSecret({ data: o.data, create: true }));
  const state: ServerState = {
    db,
    actions: new ActionStore(st),
    parsers: new ParserStore(st),
    apps: new AppStore(st),
    catalog,
    catalogById: new Map(catalog.map((op) => [op.id, op])),
    accounts: new Accounts(o.users ?? []),
    logins: new LoginThrottle({
      attempts: o.loginAttempts ?? DEFAULT_LOGIN_LIMITS.attempts,
      windowS: o.loginWindowS ?? DEFAULT_LOGIN_LIMITS.windowS,
    }),
    tokens,
    lists: {
      specOnly: o.specOnly === true,
      pageSize: o.pageSize ?? (o.specOnly ? undefined : DEFAULT_PAGE_SIZE),
    },
  };
  const stats = emptyStats(); // the handler keeps this object: reset in place
  let closing: Promise<void> | undefined;
  const handler = createHandler({
    router: new Router([...actionRoutes, ...parserRoutes, ...appRoutes, ...publicRoutes]),
    state,
    cache: new AnswerCache(db),
    faults: new Faults(o),
    stats,
    log: o.log,
    closing: () => closing !== undefined,
  });
  const requestTimeout = o.requestTimeoutMs ?? 60_000;
  const server = createServer({
    keepAlive: true,
    // Node checks for late requests on this period (30 s by default): no coarser than a quarter of the limit.
    connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(requestTimeout / 4))),
  }, (req, res) => { void handler(req, res); });
  // Clients keep pooled connections: hold idle ones a while, but never wait forever on a slow peer.
  server.keepAliveTimeout = 10_000;
  server.headersTimeout = Math.min(15_000, requestTimeout);
  server.requestTimeout = requestTimeout;
  capConnectionsPerClient(server, o.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT);
  server.on('clientError', onClientError);
  server.on('checkExpectation', onCheckExpectation);
  server.on('connect', onConnect);
  server.on('request', (_req, res) => {
    res.once('finish', () => { if (closing) setImmediate(() => server.closeIdleConnections()); });
  });

  await listen(server, o.host ?? '127.0.0.1', o.port ?? 8080);
  const port = (server.address() as AddressInfo).port;
  const host = o.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    stats: () => ({ ...stats, byRoute: { ...stats.byRoute }, rowsRead: st.rowsRead }),
    resetStats: () => {
      Object.assign(stats, emptyStats());
      st.rowsRead = 0;
    },
    mintToken: (org, expiresIn) => tokens.mint(org, expiresIn),
    close: () => {
      closing ??= shutdown(server, () => db.close());
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function shutdown(server: Server, closeDb: () => void): Promise<void> {
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
  closeDb();
}
