// Connecting to an API, as in CONTRACT.md "Connecting to an API": the URL and the
// organization guard may come from flags or the environment; credentials come ONLY from the
// environment (a flag would land in shell history, a config file in git).

import { InvalidArgumentError, Option, type Command } from 'commander';
import { lazyClient } from '../api/lazy-client.js';
import { displayUrl } from '../api/display-url.js';
import type { ApiClient } from '../api/types.js';
import type { RetryInfo } from '../api/transport.js';
import type { Io } from './io.js';
import { CliError } from './exit.js';
import { credentialVariable, type CredentialBase } from '../config/environments.js';
import type { SelectedEnvironment } from './environment.js';

export interface ConnectionFlags {
  apiUrl?: string;
  organization?: number;
  concurrency?: number | 'auto';
}

export interface Connection {
  client: ApiClient;
  /** --organization or MENUCTL_ORGANIZATION_ID; null when neither is set. */
  organizationGuard: number | null;
  concurrency: number;
  /** The API's base URL without credentials: the applied-state record is kept per API (cli/record.ts). */
  baseUrl: string;
  /** The environment acted on (`--env`), null for a config without environments. */
  environment: string | null;
  /** The environment's organization_id: the guard where no config is loaded (export, `apply --plan` without PATH). */
  environmentOrganization: number | undefined;
}

export const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;

export function parseConcurrency(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new InvalidArgumentError(`must be an integer from 1 to ${MAX_CONCURRENCY}, or auto.`);
  }
  return n;
}

function parseOrganization(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer organization id.');
  return n;
}

export function addApiUrlOption(cmd: Command): Command {
  return cmd.addOption(new Option('--api-url <url>', 'base URL of the API (env: MENUCTL_API_URL)'));
}

/** --api-url, --organization, --concurrency (credentials: MENUCTL_TOKEN or MENUCTL_EMAIL + MENUCTL_PASSWORD). */
export function addConnectionOptions(cmd: Command): Command {
  return addApiUrlOption(cmd)
    .addOption(new Option('--organization <id>', 'refuse to act unless the credentials belong to this organization (env: MENUCTL_ORGANIZATION_ID)')
      .argParser(parseOrganization))
    .addOption(new Option('--concurrency <n>', `parallel requests, 1..${MAX_CONCURRENCY}; auto: start at ${DEFAULT_CONCURRENCY}, grow to ${MAX_CONCURRENCY} while the server's latency stays flat`)
      .argParser(parseConcurrency).default(DEFAULT_CONCURRENCY));
}

/**
 * The API URL from --api-url or MENUCTL_API_URL, checked; null when neither is set. A URL
 * ending in `/api` is the most common mistake (the spec's paths all start with /api and
 * menuctl adds it): it is dropped, with one line on stderr saying so, rather than failing with
 * "no route for /api/api/actions".
 */
export function apiUrl(flags: Pick<ConnectionFlags, 'apiUrl'>, io: Io, environmentUrl?: string): string | null {
  // --api-url and MENUCTL_API_URL win over the environment's api_url (CONTRACT.md "Environments").
  const raw = (flags.apiUrl ?? nonEmpty(io.env.MENUCTL_API_URL) ?? environmentUrl)?.trim();
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`the API URL ${JSON.stringify(displayUrl(raw))} is not a URL: give --api-url or MENUCTL_API_URL as http(s)://host[:port]`, { code: 'api.url-invalid' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`the API URL must start with http:// or https:// (got ${url.protocol}//...)`, { code: 'api.url-invalid' });
  }
  // Request paths are appended to the base URL, so a query or fragment in it breaks every
  // request (a misleading 404). Not echoed: a query is where a gateway key would be put.
  const queryAt = raw.search(/[?#]/);
  if (queryAt !== -1) {
    throw new CliError(`the API URL must not have a ?query or #fragment: give the address in front of /api only (got ${displayUrl(raw.slice(0, queryAt))}?...)`, { code: 'api.url-invalid' });
  }
  if (/\/api\/?$/.test(url.pathname)) {
    const base = raw.replace(/\/api\/?$/, '');
    io.stderr.write(`menuctl: the API URL ends in /api, which menuctl adds itself; using ${displayUrl(base)} (drop /api from --api-url or MENUCTL_API_URL to silence this)\n`);
    return base;
  }
  return raw;
}

/**
 * `signal`: the run's interrupt, for a command that stops gracefully (apply): once aborted,
 * the client cancels its requests in flight and sends nothing more.
 */
export function connect(
  flags: ConnectionFlags, io: Io, environment: SelectedEnvironment | null = null, options: { signal?: AbortSignal } = {},
): Connection {
  const baseUrl = apiUrl(flags, io, environment?.def?.api_url);
  if (baseUrl === null) {
    const hint = environment ? ` or give environment ${environment.name} an \`api_url:\`` : '';
    throw new CliError(`no API URL: pass --api-url URL or set MENUCTL_API_URL${hint}`, { code: 'api.url-missing' });
  }
  const limits = clientLimits(flags.concurrency ?? DEFAULT_CONCURRENCY);
  const concurrency = limits.concurrency;
  const { variable, ...creds } = credentials(io, environment?.name ?? null);
  const readWaitMs = readTimeout(io);
  const client = lazyClient({
    baseUrl, ...limits, ...creds, onRetry: retryNotice(io),
    ...(readWaitMs !== undefined ? { readWaitMs } : {}), ...(options.signal ? { signal: options.signal } : {}),
  });
  if ('token' in creds && typeof creds.token === 'string' && variable) tokenOrigin.set(client, { variable, jwt: looksLikeJwt(creds.token) });
  return {
    client, organizationGuard: flags.organization ?? envOrganization(io), concurrency, baseUrl: displayUrl(baseUrl),
    environment: environment?.name ?? null,
    environmentOrganization: environment?.def?.organization_id,
  };
}
/** A wait the backoff alone never reaches (its cap is 5 s): only a server's Retry-After asks for one. */
const LONG_WAIT_MS = 5_000;

// Only a 429's Retry-After asks for such a wait (api/retry.ts retryDelay).
const REASON_WORDS: Record<string, string> = { 429: 'rate limited (429)' };

/**
 * One plain line when the API makes the run wait long enough to look stuck (a 429 with a long
 * Retry-After): in CI there is no progress bar to show it. Once per pause, not per request waiting
 * in it; short backoffs stay quiet.
 */
export function retryNotice(io: Io, now: () => number = Date.now): (info: RetryInfo) => void {
  let saidUntil = 0;
  return (info) => {
    if (info.delayMs < LONG_WAIT_MS) return;
    const until = now() + info.delayMs;
    if (until <= saidUntil + 1_000) return;
    saidUntil = until;
    io.stderr.write(`menuctl: ${info.method} ${info.path}: ${REASON_WORDS[info.reason] ?? info.reason}; the API asked to wait, retrying in ${Math.round(info.delayMs / 1000)} s\n`);
  };
}

/**
 * The client's limits for --concurrency: a number is fixed; auto starts at the default and lets
 * the client's limiter find the level (api/limiter.ts), callers queueing up to the ceiling.
 */
export function clientLimits(asked: number | 'auto'): { concurrency: number; startConcurrency?: number } {
  return asked === 'auto' ? { concurrency: MAX_CONCURRENCY, startConcurrency: DEFAULT_CONCURRENCY } : { concurrency: asked };
}

type Credentials = { token: string } | { email: string; password: string };

/**
 * With an environment, its own MENUCTL_TOKEN_<NAME> (or MENUCTL_EMAIL_<NAME> + MENUCTL_PASSWORD_<NAME>)
 * comes first; otherwise, or when it has none, MENUCTL_TOKEN (or MENUCTL_EMAIL + MENUCTL_PASSWORD).
 * The organization guard is what keeps a shared token from acting on the wrong environment.
 */
function credentials(io: Io, environment: string | null): Credentials & { variable?: string } {
  if (environment !== null) {
    const own = credentialsFrom(io, (base) => credentialVariable(base, environment));
    if (own) return own;
  }
  const shared = credentialsFrom(io, (base) => base);
  if (shared) return shared;
  const perEnv = environment !== null ? `${credentialVariable('MENUCTL_TOKEN', environment)}, or ` : '';
  throw new CliError(`no API credentials: set ${perEnv}MENUCTL_TOKEN to a JWT, or MENUCTL_EMAIL and MENUCTL_PASSWORD to log in`, { code: 'api.credentials-missing' });
}

/**
 * Which variable a client's token came from, and whether it is shaped as a JWT: only the
 * organization guard needs to know (a malformed token is otherwise the server's to refuse, and
 * tests use opaque tokens against servers that accept them).
 */
const tokenOrigin = new WeakMap<ApiClient, { variable: string; jwt: boolean }>();

/** Three base64url parts whose first decodes to a JSON object: a JWT's shape, not its validity. */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)) || parts[0] === '') return false;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown;
    return typeof header === 'object' && header !== null && !Array.isArray(header);
  } catch {
    return false;
  }
}

function credentialsFrom(io: Io, name: (base: CredentialBase) => string): (Credentials & { variable?: string }) | undefined {
  const token = jwtFrom(io.env[name('MENUCTL_TOKEN')], name('MENUCTL_TOKEN'));
  if (token !== undefined) return { token, variable: name('MENUCTL_TOKEN') };
  const [emailVar, passwordVar] = [name('MENUCTL_EMAIL'), name('MENUCTL_PASSWORD')];
  const email = nonEmpty(io.env[emailVar]?.trim());
  const password = nonEmpty(io.env[passwordVar]);
  if (email !== undefined && password !== undefined) return { email, password };
  if (email !== undefined || password !== undefined) {
    const [set, unset] = email !== undefined ? [emailVar, passwordVar] : [passwordVar, emailVar];
    throw new CliError(`no API credentials (${set} is set but ${unset} is not): set both, or ${name('MENUCTL_TOKEN')} to a JWT`, { code: 'api.credentials-missing' });
  }
  return undefined;
}

/**
 * MENUCTL_READ_TIMEOUT: seconds one read (GET) may take in all, retries included; the client's
 * default (60 s) when unset. An environment variable rather than a flag: it is a property of the
 * network a CI job runs in, set once for every command.
 */
function readTimeout(io: Io): number | undefined {
  const raw = nonEmpty(io.env.MENUCTL_READ_TIMEOUT?.trim());
  if (raw === undefined) return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s <= 0) throw new CliError(`MENUCTL_READ_TIMEOUT must be a number of seconds above 0 (got ${JSON.stringify(raw)})`, { code: 'option.invalid' });
  return Math.round(s * 1000);
}

function envOrganization(io: Io): number | null {
  const raw = nonEmpty(io.env.MENUCTL_ORGANIZATION_ID);
  if (raw === undefined) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`MENUCTL_ORGANIZATION_ID must be a positive integer (got ${JSON.stringify(raw)})`, { code: 'option.invalid' });
  return n;
}

/**
 * Refuses to go on when the organization the config or the flag names is not the one the
 * credentials act for. Returns the credentials' organization (null when none is required
 * and the token does not say).
 */
export async function checkOrganization(
  client: ApiClient, expected: number | null, configOrg?: number, environment: string | null = null,
): Promise<number | null> {
  const configSays = environment !== null ? `environment ${environment}'s organization_id` : 'the config\'s organization_id';
  if (expected !== null && configOrg !== undefined && expected !== configOrg) {
    const says = environment !== null ? `${configSays} is ${configOrg}` : `the config says organization_id: ${configOrg}`;
    throw new CliError(`${says} but --organization/MENUCTL_ORGANIZATION_ID says ${expected}: make them agree`, { code: 'organization.mismatch' });
  }
  const want = expected ?? configOrg ?? null;
  const actual = await client.organizationId();
  if (want === null) return actual;
  if (actual === null) {
    const origin = tokenOrigin.get(client);
    if (origin && !origin.jwt) {
      throw new CliError(
        `${origin.variable} is not a JWT (a JWT is three base64url parts, header.payload.signature, whose header is JSON): ` +
        'copy the whole token again, or log in with MENUCTL_EMAIL and MENUCTL_PASSWORD instead',
        { code: 'api.token-invalid' },
      );
    }
    throw new CliError(
      `cannot check the organization guard (${want}): the token is a JWT but carries no organization_id claim, so it cannot say ` +
      'which organization it acts for; use a token issued with that claim (menuctl token --org N for the reference server)',
      { code: 'organization.unknown' },
    );
  }
  if (actual !== want) {
    const source = expected !== null ? '--organization/MENUCTL_ORGANIZATION_ID' : configSays;
    throw new CliError(
      `organization mismatch: the credentials act for organization ${actual}, but ${source} is ${want}; ` +
      'nothing was done (use credentials for that organization, or fix the guard)',
      { code: 'organization.mismatch' },
    );
  }
  return actual;
}

/**
 * MENUCTL_TOKEN without surrounding whitespace: a secret pasted into a CI system often keeps
 * its trailing newline, and a JWT never has whitespace, so trimming cannot change a valid one.
 * Whitespace inside is refused with the reason (sent as is, undici rejects the header with a
 * bare UND_ERR_INVALID_ARG). The value itself is never shown.
 */
function jwtFrom(value: string | undefined, variable: string): string | undefined {
  const token = nonEmpty(value?.trim());
  if (token === undefined) return undefined;
  if (/^bearer\s/i.test(token)) {
    throw new CliError(`${variable} starts with "Bearer ": set it to the JWT alone (menuctl sends it as the Authorization header as is)`, { code: 'api.token-invalid' });
  }
  if (/[\s\x00-\x1f\x7f]/.test(token)) {
    throw new CliError(`${variable} has a space or line break inside it (a JWT has none): copy the token again, without extra characters`, { code: 'api.token-invalid' });
  }
  return token;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
