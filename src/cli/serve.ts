// `menuctl serve`: the reference API server (CONTRACT.md, Reference server; docs/api.md).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { CliError } from './exit.js';
import { collect } from './options.js';
import { batchedLines } from '../server/access-log.js';
import { startServer, type ServerOptions } from '../server/index.js';
import { dataDirectoryProblem } from '../server/data-path.js';
import { resolveJwtSecret } from '../server/jwt-secret.js';
import { loadSqlite, SqliteUnavailableError } from '../server/sqlite.js';
import type { UserSpec } from '../server/passwords.js';

interface ServeFlags {
  host: string;
  port: string;
  data: string;
  jwtSecret?: string;
  user: string[];
  latency?: string;
  failRate?: string;
  resetRate?: string;
  rateLimit?: string;
  faultSeed?: string;
  capacity?: string;
  accessLog: boolean;
  specOnly?: boolean;
  pageSize?: string;
  loginAttempts?: string;
  loginWindow?: string;
  connectionsPerClient?: string;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('run the reference Mobile Menu Automation API server')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free port)', '8080')
    .option('--data <file>', 'SQLite database file, or :memory:', './menuctl-data.sqlite')
    .option('--jwt-secret <secret>', 'HS256 secret (or MENUCTL_JWT_SECRET; default: generated and kept beside the database)')
    .option('--user <email:password[:org]>', 'an account for POST /api/authenticate (repeatable; org defaults to 1)', collect, [])
    .option('--latency <ms>', 'fault injection: delay every response by MS milliseconds')
    .option('--fail-rate <p>', 'fault injection: answer 503 to this fraction of requests (0..1)')
    .option('--reset-rate <p>', 'fault injection: commit this fraction of writes, then drop the connection unanswered (0..1)')
    .option('--rate-limit <n>', 'fault injection: allow N requests per second per token, then 429 with Retry-After')
    .option('--capacity <n>', 'fault injection (extension): serve at most N requests at once, each taking --latency; the rest queue, so latency grows')
    .option('--fault-seed <n>', 'seed for --fail-rate/--reset-rate, so a run can be repeated exactly')
    .option('--no-access-log', 'do not print one line per request')
    .option('--spec-only', 'serve only what the API spec shows: no GET /api/apps, no list meta or ?archived=, PATCH of an action answers 204')
    .option('--page-size <n>', 'most items per list answer, the rest behind links.next (default: 1000; with --spec-only: no paging)')
    .option('--login-attempts <n>', 'failed logins allowed per client address, refilled at N per --login-window; then 429 with Retry-After before the password is checked (default: 10; 0: no limit)')
    .option('--login-window <seconds>', 'the window of --login-attempts (default: 60)')
    .option('--connections-per-client <n>', 'open connections one client address may hold; more are closed on arrival (default: 256)')
    .action(async (flags: ServeFlags) => {
      await serve(flags, ctx);
    });
}

export function parseServeOptions(flags: ServeFlags, ctx: CliContext): ServerOptions {
  const data = flags.data === ':memory:' ? ':memory:' : resolve(ctx.io.cwd, flags.data);
  const port = intIn(flags.port, '--port', 0, 65535);
  // Before the secret: the generated one is kept beside the database, in the same directory.
  const problem = dataDirectoryProblem(data);
  if (problem !== null) throw new CliError(`cannot start the server: ${problem}`, { code: 'serve.cannot-start' });
  return {
    host: flags.host,
    port,
    data,
    jwtSecret: serverSecret(flags, ctx, data),
    users: flags.user.map(parseUser),
    latencyMs: flags.latency !== undefined ? intIn(flags.latency, '--latency', 0, 600_000) : undefined,
    failRate: flags.failRate !== undefined ? rate(flags.failRate, '--fail-rate') : undefined,
    resetRate: flags.resetRate !== undefined ? rate(flags.resetRate, '--reset-rate') : undefined,
    rateLimit: flags.rateLimit !== undefined ? intIn(flags.rateLimit, '--rate-limit', 1, 1_000_000) : undefined,
    capacity: flags.capacity !== undefined ? intIn(flags.capacity, '--capacity', 1, 100_000) : undefined,
    faultSeed: flags.faultSeed !== undefined ? intIn(flags.faultSeed, '--fault-seed', 0, 2 ** 32 - 1) : undefined,
    specOnly: flags.specOnly === true,
    pageSize: flags.pageSize !== undefined ? intIn(flags.pageSize, '--page-size', 1, 100_000) : undefined,
    loginAttempts: flags.loginAttempts !== undefined ? intIn(flags.loginAttempts, '--login-attempts', 0, 1_000_000) : undefined,
    loginWindowS: flags.loginWindow !== undefined ? intIn(flags.loginWindow, '--login-window', 1, 86_400) : undefined,
    maxConnectionsPerClient: flags.connectionsPerClient !== undefined
      ? intIn(flags.connectionsPerClient, '--connections-per-client', 1, 100_000) : undefined,
  };
}

function serverSecret(flags: ServeFlags, ctx: CliContext, data: string): string {
  try {
    return resolveJwtSecret({ flag: flags.jwtSecret, env: ctx.io.env.MENUCTL_JWT_SECRET, data, create: true });
  } catch (err) {
    throw new CliError(`cannot start the server: ${(err as Error).message}`, { code: 'serve.cannot-start' });
  }
}

/** Startup failures that Node or SQLite word for their own readers, put in terms of the flags. */
const STARTUP_PROBLEMS: Record<string, (o: ServerOptions) => string> = {
  SQLITE_NOTADB: (o) => `${o.data} is not a SQLite database: pass a database menuctl serve made, a new path, or --data :memory:`,
  ENOTFOUND: (o) => notAnAddress(o.host),
  EADDRNOTAVAIL: (o) => notAnAddress(o.host),
};

const notAnAddress = (host: string | undefined): string =>
  `--host ${host} is not an address of this machine: use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or one of its own addresses`;

async function serve(flags: ServeFlags, ctx: CliContext): Promise<void> {
  requireSqlite();
  const log = flags.accessLog ? batchedLines((chunk) => ctx.io.stdout.write(chunk)) : undefined;
  const options: ServerOptions = { ...parseServeOptions(flags, ctx), log };
  const server = await startServer(options).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new CliError(`port ${options.port} on ${options.host} is in use: pick another with --port (0 picks a free one)`, { code: 'serve.port-in-use' });
    throw new CliError(`cannot start the server: ${STARTUP_PROBLEMS[err.code ?? '']?.(options) ?? err.message}`, { code: 'serve.cannot-start' });
  });
  ctx.io.stdout.write(`menuctl api listening on ${server.url}\n`);
  const orgs = [...new Set((options.users ?? []).map((u) => u.organization_id))];
  ctx.io.stderr.write(`${tokenHint({ source: secretSource(flags, ctx), data: flags.data, orgs })}\n`);
  await new Promise<void>((done) => {
    if (ctx.signal.aborted) done();
    else ctx.signal.addEventListener('abort', () => done(), { once: true });
  });
  ctx.io.stderr.write('menuctl api: shutting down (finishing requests in flight)\n');
  await server.close();
  log?.flush();
}

/** Before anything is created (the generated JWT secret, the database): SQLite is optional. */
export function requireSqlite(): void {
  try {
    loadSqlite();
  } catch (err) {
    if (err instanceof SqliteUnavailableError) throw new CliError(err.message, { code: 'serve.no-sqlite' });
    throw err;
  }
}

/** Where the server's JWT secret came from: the same order as resolveJwtSecret. */
export type SecretSource = 'flag' | 'env' | 'memory' | 'file';

function secretSource(flags: ServeFlags, ctx: CliContext): SecretSource {
  if (flags.jwtSecret) return 'flag';
  if (ctx.io.env.MENUCTL_JWT_SECRET) return 'env';
  return flags.data === ':memory:' ? 'memory' : 'file';
}

/**
 * How to mint a token that this server accepts. `menuctl token` resolves the secret the same
 * way, so the hint must name the same source; it never prints the secret itself (stderr may
 * be a CI log). The organization is the first one the `--user` accounts belong to (a token for
 * another one sees none of their data); organization 1 when there are no accounts.
 */
export function tokenHint(o: { source: SecretSource; data: string; orgs?: readonly number[] }): string {
  const orgs = o.orgs && o.orgs.length > 0 ? o.orgs : [1];
  const org = `--org ${orgs[0]}`;
  const others = orgs.length > 1 ? ` (the accounts are in organizations ${orgs.join(', ')}: pass the one to act for)` : '';
  switch (o.source) {
    case 'flag':
      return `mint a token with: menuctl token ${org} --jwt-secret <secret>, with the same --jwt-secret this server was started with${others}`;
    case 'env':
      return `mint a token with: menuctl token ${org}, with the same MENUCTL_JWT_SECRET set (or --jwt-secret <that secret>)${others}`;
    case 'file':
      return `mint a token with: menuctl token ${org} --data ${shellWord(o.data)}${others}`;
    case 'memory':
      return 'tokens cannot be minted for this server: with --data :memory: and no --jwt-secret its secret is generated ' +
        `in memory and stored nowhere. Restart it with --jwt-secret S (then menuctl token ${org} --jwt-secret S), ` +
        'or give it --user EMAIL:PASSWORD and log in with MENUCTL_EMAIL and MENUCTL_PASSWORD';
  }
}

/** A path as one shell word, so the hint can be pasted as is. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function intIn(text: string, flag: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new CliError(`${flag} must be a whole number from ${min} to ${max} (got "${text}")`, { code: 'option.invalid' });
  }
  return n;
}

function rate(text: string, flag: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new CliError(`${flag} must be a probability from 0 to 1, e.g. 0.1 (got "${text}")`, { code: 'option.invalid' });
  }
  return n;
}

/** EMAIL:PASSWORD[:ORG]; a trailing `:digits` is the organization (default 1). */
export function parseUser(spec: string): UserSpec {
  const first = spec.indexOf(':');
  if (first <= 0) throw new CliError('--user must be EMAIL:PASSWORD[:ORG], e.g. --user ops@example.com:s3cret:1', { code: 'option.invalid' });
  const email = spec.slice(0, first);
  let password = spec.slice(first + 1);
  let organization_id = 1;
  const m = /^(.*):([0-9]+)$/.exec(password);
  if (m && m[1]!.length > 0) {
    password = m[1]!;
    organization_id = Number(m[2]);
  }
  if (password.length === 0) throw new CliError(`--user ${email}: the password is empty`, { code: 'option.invalid' });
  if (!Number.isSafeInteger(organization_id) || organization_id < 1) throw new CliError(`--user ${email}: ORG must be a positive integer`, { code: 'option.invalid' });
  return { email, password, organization_id };
}
