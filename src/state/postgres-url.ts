// `--state postgres://USER@HOST:PORT/DB?schema=S&table=T` (also postgresql://): where the
// PostgreSQL backend (src/state/postgres.ts) connects, how messages show it, and errors that say
// what to do. The password comes from the URL (`USER:PASSWORD@`, or libpq's `?password=`) or
// PGPASSWORD in the env given (never process.env behind the caller's back) and appears in no
// message, whatever characters it holds.
//
// Query parameters (libpq's names where libpq has one):
//   schema=NAME   the schema of the tables (created if missing); default: the first schema of the
//                 search_path, normally `public`
//   table=PREFIX  the tables are PREFIX_state, PREFIX_state_history and PREFIX_locks; default
//                 `menuctl`, so several teams can share a database under different prefixes
//   sslmode=...   as libpq (default: PGSSLMODE, else `prefer`, libpq's default):
//                   disable      no TLS
//                   allow        no TLS (libpq would retry with TLS when the server refuses a plain
//                                connection; menuctl does not: say `prefer` or `require`)
//                   prefer       TLS when the server offers it, without verifying its certificate;
//                                plain when the server has no TLS
//                   require      TLS, without verifying the certificate (encrypts, does not
//                                authenticate the server); with sslrootcert, as verify-ca (libpq too)
//                   verify-ca    TLS, the certificate must chain to sslrootcert (or a public CA)
//                   verify-full  as verify-ca, and name the host in the URL
//                   no-verify    node-postgres's name for require, kept for URLs that use it
//   sslrootcert=PATH   the CA certificate(s) for verify-ca/verify-full (default: PGSSLROOTCERT,
//                 else the public CAs Node knows; libpq would read ~/.postgresql/root.crt)
//   host=/run/postgresql   a Unix socket directory instead of HOST
//   password=...  as libpq; better in PGPASSWORD, where no log or shell history keeps it
// Other parameters are refused, so a typo is not silently ignored.

import type pg from 'pg';

export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';

export interface PostgresTarget {
  /** The URL without its password: what messages show. */
  shown: string;
  /** Everything to connect but the password and TLS (see `ssl`). */
  connection: Omit<pg.ClientConfig, 'ssl' | 'password'>;
  password: string | undefined;
  ssl: { mode: SslMode; rootCert: string | null };
  schema: string | null;
  prefix: string;
}

const NAME = /^[a-z_][a-z0-9_]{0,39}$/;
const KNOWN = new Set(['schema', 'table', 'sslmode', 'sslrootcert', 'host', 'password']);
const SSL_MODES: Record<string, SslMode> = {
  disable: 'disable', allow: 'allow', prefer: 'prefer', require: 'require', 'no-verify': 'require', 'verify-ca': 'verify-ca', 'verify-full': 'verify-full',
};

export class PostgresStateError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'PostgresStateError';
  }
}

/**
 * `url` with every credential it may hold masked, for a message about any URL, parsed or not:
 * from the first `:` after `scheme://` to the last `@` (the password of `USER:PASSWORD@`, even
 * one with a raw `@`, `/`, `?` or `#` that no URL parser would read as intended), and every
 * `password=` / `sslpassword=` query value to the end of the text (a raw `&` in it would
 * otherwise end the mask early); with no `@`, whatever follows `USER:` unless it is a port.
 * Hiding too much is harmless; the user name stays.
 */
export function hidePassword(url: string): string {
  const spans: [number, number][] = [];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (scheme) {
    const start = scheme[0].length;
    const at = url.lastIndexOf('@');
    const colon = url.indexOf(':', start);
    if (at > start && colon >= 0 && colon < at) spans.push([colon + 1, at]);
    else if (hostless(url)) spans.push([colon + 1, url.length]);
  }
  for (const m of url.matchAll(/[?&](?:ssl)?password=/gi)) spans.push([m.index + m[0].length, url.length]);
  if (spans.length === 0) return url;
  // Overlapping spans merged, then each replaced by *** (from the end, so indexes hold).
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([...s]);
  }
  let out = url;
  for (const [from, to] of merged.reverse()) out = `${out.slice(0, from)}***${out.slice(to)}`;
  return out;
}

/** No `@` at all, yet `scheme://X:Y` where Y is not a port (digits): `USER:PASSWORD` without a host. */
function hostless(url: string): boolean {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?!\[)([^/@]*?):([^@]*)$/i.exec(url);
  return m !== null && !/^\d+(?:[/?#]|$)/.test(m[2]!);
}

export function parsePostgresUrl(url: string, env: NodeJS.ProcessEnv): PostgresTarget {
  const masked = hidePassword(url);
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new PostgresStateError(`${masked}: the PostgreSQL state backend takes postgres://USER@HOST:PORT/DATABASE`);
  }
  // A raw `/`, `?` or `#` in a password moves where a URL parser thinks the host starts (and can
  // turn part of the password into a port or query): refuse before parsing, naming the escapes.
  // (A raw `@` is fine: the last `@` ends the password.)
  const rest = url.slice(url.indexOf('//') + 2);
  const credentials = rest.slice(0, Math.max(0, rest.lastIndexOf('@')));
  if (credentials.includes(':') && /[/?#]/.test(credentials)) {
    throw new PostgresStateError(`${masked}: the password (or user) holds a character that must be %-escaped in a URL: / as %2F, ? as %3F, # as %23 (and % as %25, @ as %40, : as %3A); or leave it out of the URL and set PGPASSWORD`);
  }
  if (hostless(url)) throw new PostgresStateError(`${masked}: no host after the password (a port is digits): write postgres://USER:PASSWORD@HOST:PORT/DATABASE`);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PostgresStateError(`${masked} is not a URL: write postgres://USER@HOST:PORT/DATABASE`);
  }
  if (u.hash !== '') throw new PostgresStateError(`${masked}: a PostgreSQL URL has no #fragment (a # in the password is written %23)`);
  const inQuery = u.searchParams.get('password');
  const fromUrl = u.password !== '' ? decode(u.password, 'password', masked) : inQuery !== null && inQuery !== '' ? inQuery : undefined;
  // After a `password=`, whatever follows may be the rest of a password with a raw `&`: the
  // parameters after it are used but not shown, and no key or value of the query is named.
  const quiet = inQuery !== null;
  const shownUrl = new URL(u);
  shownUrl.password = '';
  if (quiet) {
    const keys = [...u.searchParams.keys()];
    for (const key of keys.slice(keys.indexOf('password'))) shownUrl.searchParams.delete(key);
  }
  u.password = '';
  u.searchParams.delete('password');
  const shown = shownUrl.toString().replace(/\?$/, '');
  for (const key of u.searchParams.keys()) {
    if (!KNOWN.has(key)) {
      throw new PostgresStateError(quiet
        ? `${shown.replace(/\?.*$/, '')}: an unknown parameter follows password= (an & in the password is written %26; better, set PGPASSWORD)`
        : `${shown.replace(/\?.*$/, '')}: unknown parameter "${key}" (known: ${[...KNOWN].join(', ')})`);
    }
  }
  const said = (v: string) => (quiet ? '(the value given)' : v);
  const schema = u.searchParams.get('schema');
  const prefix = u.searchParams.get('table') ?? 'menuctl';
  for (const [what, v] of [['schema', schema], ['table', prefix]] as const) {
    if (v !== null && !NAME.test(v)) throw new PostgresStateError(`${shown}: ${what}=${said(v)} must be a lower-case SQL name (letters, digits, _), at most 40 characters`);
  }
  const modeGiven = u.searchParams.get('sslmode') ?? (env.PGSSLMODE || 'prefer');
  const mode = SSL_MODES[modeGiven];
  if (!mode) throw new PostgresStateError(`${shown}: sslmode=${said(modeGiven)} is not one of ${Object.keys(SSL_MODES).join(', ')}`);
  const rootCert = u.searchParams.get('sslrootcert') ?? (env.PGSSLROOTCERT || null);
  const host = u.searchParams.get('host') ?? u.hostname.replace(/^\[(.*)\]$/, '$1');
  const database = decode(u.pathname.replace(/^\//, ''), 'database', shown);
  const user = decode(u.username, 'user', shown);
  if (host === '' || database === '' || user === '') {
    throw new PostgresStateError(`${shown}: name the user, host and database: postgres://USER@HOST:PORT/DATABASE`);
  }
  return {
    shown,
    connection: { host, port: u.port === '' ? 5432 : Number(u.port), database, user },
    password: fromUrl ?? (env.PGPASSWORD || undefined),
    ssl: { mode, rootCert },
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

/**
 * node-postgres's `ssl` for a mode: the first try. `prefer` starts with TLS; the backend retries
 * without it when the server answers that it has none (see PostgresBackend.connectClient).
 * `ca`: the contents of sslrootcert, when one is given.
 */
export function sslOptions(mode: SslMode, ca: string | null): pg.ClientConfig['ssl'] {
  const withCa = ca === null ? {} : { ca };
  switch (mode) {
    case 'disable': case 'allow': return false;
    // Encrypts without authenticating the server, as libpq's prefer and require do.
    case 'prefer': return { rejectUnauthorized: false };
    // libpq: "if a root CA file exists, require behaves like verify-ca".
    case 'require': return ca === null ? { rejectUnauthorized: false } : { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...withCa };
    case 'verify-ca': return { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...withCa };
    case 'verify-full': return { rejectUnauthorized: true, ...withCa };
  }
}

/** What was being done when an error came, so a permission error names the grant it lacks. */
export type Stage = 'connect' | 'create' | 'read' | 'write';

/** Node's TLS verification codes (tls.TLSSocket#authorizationError, and the hostname check). */
const CERT_CODES = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_UNTRUSTED', 'CERT_REJECTED', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/** Codes menuctl gives the driver's errors that carry none (see PostgresBackend.connectClient). */
export const NO_TLS = 'MENUCTL_NO_TLS';
export const CONNECT_TIMEOUT = 'MENUCTL_CONNECT_TIMEOUT';
export const CLOSED_BY_SERVER = 'MENUCTL_CLOSED';
export const NO_PASSWORD = 'MENUCTL_NO_PASSWORD';

interface Described {
  shown: string;
  connection: { user?: string | undefined; database?: string | undefined };
  password?: string | undefined;
  ssl?: { mode: SslMode };
  /** The three tables, as SQL names, for the GRANT a permission error suggests. */
  tables?: { state: string; history: string; locks: string; schema: string | null };
}

/**
 * An error as a sentence that says what to check, classified by its code: the SQLSTATE the
 * server (or a pooler) sent, Node's network and TLS codes, or one of the codes above; never by
 * matching the text. The password is scrubbed from whatever was said, in case some layer ever
 * echoes it.
 */
export function describeError(err: unknown, target: Described, stage: Stage): PostgresStateError {
  if (err instanceof PostgresStateError) return err;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  let said = String(e?.message ?? err);
  // (Not a very short one: scrubbing `x` would garble the sentence, and no driver echoes it.)
  if (target.password && target.password.length >= 4) said = said.split(target.password).join('***');
  const { shown } = target;
  const user = target.connection.user ?? '?';
  const database = target.connection.database ?? '?';
  const fail = (text: string) => new PostgresStateError(`${shown}: ${text}`, code);
  const unreachable = `check the host and port in the URL and that the PostgreSQL server runs and accepts connections from here (or the pooler in front of it)`;
  if (code === undefined) return fail(said);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return fail(`the server's TLS certificate is not made for the host in the URL (${said}): name the host the certificate is for, or use sslmode=verify-ca to check its chain only`);
  }
  if (CERT_CODES.has(code)) {
    return fail(`the server's TLS certificate is not trusted (${said}): give its CA with sslrootcert=PATH (or PGSSLROOTCERT), or use sslmode=require to encrypt without verifying`);
  }
  switch (code) {
    case NO_PASSWORD:
      return fail(`the server asks for a password for user ${user} and none is given: set PGPASSWORD (or put it in the URL)`);
    case NO_TLS:
      return fail(`the server does not offer TLS, and sslmode=${target.ssl?.mode ?? 'require'} requires it: enable ssl on the server, or use sslmode=prefer or disable`);
    case CONNECT_TIMEOUT:
      return fail(`no answer (${said}): ${unreachable}`);
    case CLOSED_BY_SERVER:
      return fail(`the server closed the connection (${said}): ${unreachable}; a pooler in between may have refused it (see its log)`);
    case 'ECONNREFUSED': case 'ENOTFOUND': case 'EAI_AGAIN': case 'EHOSTUNREACH': case 'ENETUNREACH': case 'ETIMEDOUT': case 'ECONNRESET': case 'EPIPE': case 'ENOENT':
      return fail(`cannot connect (${said}): ${unreachable}`);
    case '28P01':
      return fail(`the server refused user ${user} (${said}): check the user in the URL and the password (PGPASSWORD, or in the URL)`);
    case '28000':
      return fail(`the server refused user ${user} (${said}): check the user in the URL${target.ssl?.mode === 'disable' || target.ssl?.mode === 'allow' ? ', and whether the server requires TLS (sslmode=require)' : ''}, and that pg_hba.conf lets it connect from here`);
    case '3D000':
      return fail(`${said}: check the database name in the URL, or create it`);
    case '53300':
      return fail(`${said}: the server has no connection left for menuctl; try again later, or raise max_connections (or the pooler's pool size)`);
    case '57P03':
      return fail(`${said}: the server is starting or shutting down; try again in a moment`);
    case '25006':
      return fail(`${said}: the server is read-only (a standby?): connect to the primary`);
    case '42501':
      return fail(`${said}: ${permissionHint(stage, user, database, target.tables)}`);
    default:
      // 08xxx: the connection itself; a pooler's refusals come as 08P01, with its reason.
      if (code === '08P01' && stage !== 'connect') {
        return fail(`${said}: a pooler between menuctl and PostgreSQL refused it. menuctl runs transactions (its locks live in one), which pgbouncer's statement pooling does not allow: use pool_mode = transaction or session`);
      }
      if (code.startsWith('08')) return fail(`the connection failed (${said}): the server, or a pooler in front of it, refused it (its log says why); ${unreachable}`);
      return fail(said);
  }
}

function permissionHint(stage: Stage, user: string, database: string, tables: Described['tables']): string {
  const names = tables ? `${tables.state}, ${tables.history}, ${tables.locks}` : 'the state tables';
  switch (stage) {
    case 'connect':
      return `user ${user} may not connect to database ${database}: an administrator grants it (GRANT CONNECT ON DATABASE ${database} TO ${user})`;
    case 'create':
      return `user ${user} needs to create the state tables on first use (CREATE on the schema${tables?.schema ? ` ${tables.schema}` : ''}${tables?.schema ? ', or CREATE on the database to create that schema' : ''}), or an administrator creates them once (see src/state/postgres.ts)`;
    case 'read':
      return `user ${user} may not read the state tables: an administrator grants it (GRANT SELECT ON ${names} TO ${user}${tables?.schema ? `, and USAGE on schema ${tables.schema}` : ''})`;
    case 'write':
      return `user ${user} may not write the state tables: menuctl writes the record and takes its locks there, so an administrator grants it (GRANT SELECT, INSERT, UPDATE, DELETE ON ${names} TO ${user}; and GRANT USAGE ON SEQUENCE ${tables ? tables.history.replace(/"$/, '_seq_seq"') : 'the history table\'s sequence'} TO ${user})`;
  }
}
