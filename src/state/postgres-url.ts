// `--state postgres://USER@HOST:PORT/DB?schema=S&table=T` (also postgresql://): where the
// PostgreSQL backend (src/state/postgres.ts) connects, how messages show it, and errors that say
// what to do. The password comes from the URL or PGPASSWORD in the env given (never process.env
// behind the caller's back) and appears in no message.
//
// Query parameters:
//   schema=NAME   the schema of the tables (created if missing); default: the first schema of the
//                 search_path, normally `public`
//   table=PREFIX  the tables are PREFIX_state, PREFIX_state_history and PREFIX_locks; default
//                 `menuctl`, so several teams can share a database under different prefixes
//   sslmode=disable|require|no-verify|verify-full (default: PGSSLMODE, else no TLS)
//   host=/run/postgresql   a Unix socket directory instead of HOST
// Other parameters are refused, so a typo is not silently ignored.

import type pg from 'pg';

export interface PostgresTarget {
  /** The URL without its password: what messages show. */
  shown: string;
  /** Everything to connect but the password. */
  connection: pg.ClientConfig;
  password: string | undefined;
  schema: string | null;
  prefix: string;
}

const NAME = /^[a-z_][a-z0-9_]{0,39}$/;
const KNOWN = new Set(['schema', 'table', 'sslmode', 'host']);

export class PostgresStateError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'PostgresStateError';
  }
}

/** The URL with any password replaced, for a message about a URL we could not even parse. */
export function hidePassword(url: string): string {
  // Up to the last `@`: a password may hold an unescaped `@` (hiding too much is harmless).
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):.*@/i, '$1:***@');
}

export function parsePostgresUrl(url: string, env: NodeJS.ProcessEnv): PostgresTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PostgresStateError(`${hidePassword(url)} is not a URL: write postgres://USER@HOST:PORT/DATABASE`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new PostgresStateError(`${hidePassword(url)}: the PostgreSQL state backend takes postgres://USER@HOST:PORT/DATABASE`);
  }
  const fromUrl = u.password === '' ? undefined : decode(u.password, 'password', hidePassword(url));
  u.password = '';
  for (const key of u.searchParams.keys()) {
    // Named without the query, whose values could be anything (`?password=`).
    if (!KNOWN.has(key)) throw new PostgresStateError(`${u.toString().replace(/\?.*$/, '')}: unknown parameter "${key}" (known: ${[...KNOWN].join(', ')})`);
  }
  const shown = u.toString();
  const schema = u.searchParams.get('schema');
  const prefix = u.searchParams.get('table') ?? 'menuctl';
  for (const [what, v] of [['schema', schema], ['table', prefix]] as const) {
    if (v !== null && !NAME.test(v)) throw new PostgresStateError(`${shown}: ${what}=${v} must be a lower-case SQL name (letters, digits, _), at most 40 characters`);
  }
  const host = u.searchParams.get('host') ?? u.hostname.replace(/^\[(.*)\]$/, '$1');
  const database = decode(u.pathname.replace(/^\//, ''), 'database', shown);
  const user = decode(u.username, 'user', shown);
  if (host === '' || database === '' || user === '') {
    throw new PostgresStateError(`${shown}: name the user, host and database: postgres://USER@HOST:PORT/DATABASE`);
  }
  return {
    shown,
    connection: { host, port: u.port === '' ? 5432 : Number(u.port), database, user, ssl: ssl(u.searchParams.get('sslmode') ?? env.PGSSLMODE, shown) },
    password: fromUrl ?? (env.PGPASSWORD || undefined),
    schema,
    prefix,
  };
}

function decode(part: string, what: string, shown: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new PostgresStateError(`${shown}: the ${what} is not properly %-escaped`);
  }
}

function ssl(mode: string | undefined, shown: string): pg.ClientConfig['ssl'] {
  switch (mode) {
    case undefined: case '': case 'disable': case 'allow': case 'prefer': return false;
    case 'require': case 'verify-ca': case 'verify-full': return true;
    case 'no-verify': return { rejectUnauthorized: false };
    default: throw new PostgresStateError(`${shown}: sslmode=${mode} is not one of disable, require, no-verify, verify-full`);
  }
}

/**
 * A failure to reach or log in to the server, as a sentence that says what to check. The password
 * is scrubbed from whatever the driver said, in case some layer ever echoes it.
 */
export function connectError(err: unknown, target: Pick<PostgresTarget, 'shown' | 'connection' | 'password'>): PostgresStateError {
  const e = err as { code?: string; message?: string };
  let said = String(e?.message ?? err);
  // (Not a very short one: scrubbing `x` would garble the sentence, and no driver echoes it.)
  if (target.password && target.password.length >= 4) said = said.split(target.password).join('***');
  const { shown } = target;
  const user = target.connection.user;
  switch (e?.code) {
    case '28P01': case '28000':
      return new PostgresStateError(`${shown}: the server refused user ${user} (${said}): check the user in the URL and the password (PGPASSWORD, or in the URL)`, e.code);
    case '3D000':
      return new PostgresStateError(`${shown}: ${said}: check the database name in the URL, or create it`, e.code);
    case 'ECONNREFUSED': case 'ENOTFOUND': case 'EAI_AGAIN': case 'EHOSTUNREACH': case 'ETIMEDOUT': case 'ECONNRESET':
      return new PostgresStateError(`${shown}: cannot connect (${said}): check the host and port in the URL and that the PostgreSQL server runs and accepts connections from here`, e.code);
    case '42501':
      return new PostgresStateError(`${shown}: ${said}: user ${user} needs to create the state tables on first use (CREATE on the schema), or an administrator creates them once (see src/state/postgres.ts)`, e.code);
    case 'NOPASSWORD':
      return new PostgresStateError(`${shown}: the server asks for a password and none is given: set PGPASSWORD (or put it in the URL)`, e.code);
    default:
      if (/timeout|Connection terminated/i.test(said)) {
        return new PostgresStateError(`${shown}: no answer (${said}): check the host and port in the URL and that the PostgreSQL server runs and accepts connections from here`, 'ETIMEDOUT');
      }
      return new PostgresStateError(`${shown}: ${said}`, e?.code);
  }
}
