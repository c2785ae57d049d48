// The PostgreSQL URL on plain data: sslmode as libpq reads it, where the password comes from, and
// that no message or shown form ever holds the password, whatever characters it has.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { shownUrl } from '../../src/state/open.js';
import { describeError, hidePassword, parsePostgresUrl, sslOptions, type SslMode } from '../../src/state/postgres-url.js';

const parse = (url: string, env: NodeJS.ProcessEnv = {}) => parsePostgresUrl(url, env);

describe('sslmode', () => {
  test.each([
    ['disable', 'disable', false],
    ['allow', 'allow', false],
    ['prefer', 'prefer', { rejectUnauthorized: false }],
    ['require', 'require', { rejectUnauthorized: false }],
    ['no-verify', 'require', { rejectUnauthorized: false }],
    ['verify-full', 'verify-full', { rejectUnauthorized: true }],
  ] as const)('sslmode=%s is %s: %j', (given, mode, options) => {
    const t = parse(`postgres://u@h/db?sslmode=${given}`);
    expect(t.ssl.mode).toBe(mode);
    expect(sslOptions(t.ssl.mode, null)).toEqual(options);
  });

  test('verify-ca checks the chain, not the host name', () => {
    const o = sslOptions('verify-ca', 'CA PEM') as { rejectUnauthorized: boolean; ca: string; checkServerIdentity: () => unknown };
    expect(o.rejectUnauthorized).toBe(true);
    expect(o.ca).toBe('CA PEM');
    expect(o.checkServerIdentity()).toBeUndefined();
    expect(sslOptions('verify-full', 'CA PEM')).toEqual({ rejectUnauthorized: true, ca: 'CA PEM' });
  });

  test('require with a root certificate verifies as verify-ca (libpq does too)', () => {
    const o = sslOptions('require', 'CA PEM') as { rejectUnauthorized: boolean; checkServerIdentity?: () => unknown };
    expect(o.rejectUnauthorized).toBe(true);
    expect(o.checkServerIdentity?.()).toBeUndefined();
  });

  test('default: PGSSLMODE from the env given, else prefer (libpq\'s default); the URL wins', () => {
    expect(parse('postgres://u@h/db').ssl.mode).toBe('prefer');
    expect(parse('postgres://u@h/db', { PGSSLMODE: 'require' }).ssl.mode).toBe('require');
    expect(parse('postgres://u@h/db?sslmode=disable', { PGSSLMODE: 'require' }).ssl.mode).toBe('disable');
  });

  test('sslrootcert from the URL or PGSSLROOTCERT', () => {
    expect(parse('postgres://u@h/db').ssl.rootCert).toBeNull();
    expect(parse('postgres://u@h/db', { PGSSLROOTCERT: '/etc/ca.pem' }).ssl.rootCert).toBe('/etc/ca.pem');
    expect(parse('postgres://u@h/db?sslrootcert=%2Fx%2Fca.pem&sslmode=verify-full').ssl.rootCert).toBe('/x/ca.pem');
  });

  test('an unknown sslmode is refused, naming the modes', () => {
    expect(() => parse('postgres://u@h/db?sslmode=verify')).toThrow(/sslmode=verify is not one of disable, allow, prefer, require, no-verify, verify-ca, verify-full/);
  });
});

describe('password', () => {
  test('from the URL, from ?password= (libpq), else PGPASSWORD of the env given', () => {
    expect(parse('postgres://u:p%40ss@h/db', { PGPASSWORD: 'env' }).password).toBe('p@ss');
    expect(parse('postgres://u@h/db?password=q%26r', { PGPASSWORD: 'env' }).password).toBe('q&r');
    expect(parse('postgres://u@h/db', { PGPASSWORD: 'env' }).password).toBe('env');
    expect(parse('postgres://u@h/db').password).toBeUndefined();
  });

  test('an IPv6 host, a Unix socket directory', () => {
    expect(parse('postgres://u:pw@[::1]:5433/db').connection).toMatchObject({ host: '::1', port: 5433 });
    expect(parse('postgres://u@[::1]/db').connection).toMatchObject({ host: '::1', port: 5432 });
    expect(parse('postgres://u@localhost/db?host=%2Frun%2Fpostgresql').connection).toMatchObject({ host: '/run/postgresql' });
  });

  test('a raw @ in the password is read up to the last @', () => {
    const t = parse('postgres://u:p@ss@h:5433/db');
    expect(t.password).toBe('p@ss');
    expect(t.connection).toMatchObject({ host: 'h', port: 5433, user: 'u', database: 'db' });
  });

  test('a raw / ? or # in the password is refused, naming the escapes', () => {
    for (const raw of ['pa/ss', 'pa?ss', 'pa#ss', '1?x']) {
      expect(() => parse(`postgres://u:${raw}@h/db`)).toThrow(/%2F.*%3F.*%23/);
    }
  });
});

// Letters that appear in no part of the URLs or messages below but the password, so any of them
// in an output is a leak, whole or partial; with the characters that move URL boundaries.
const SECRET_LETTERS = [...'äöüßαβγδ'];
const SPECIAL = [...'#?/@:&=%+ ;!$*\'"()[]\\'];
const password = fc.array(fc.constantFrom(...SECRET_LETTERS, ...SPECIAL), { minLength: 3, maxLength: 24 })
  .filter((a) => a.some((c) => SECRET_LETTERS.includes(c)))
  .map((a) => a.join(''));

/** The password's letters, raw or %-escaped (as a URL parser re-serializes them). */
function leaks(out: string, pw: string): boolean {
  return out.includes(pw) || out.includes(encodeURIComponent(pw)) || SECRET_LETTERS.some((c) => out.includes(c))
    || /%C3%(A4|B6|BC|9F)|%CE%(B1|B2|B3|B4)/i.test(out);
}

/** Every way a URL reaches a message: shown forms, parse errors, and a driver error described. */
function outputs(url: string): string[] {
  const out = [hidePassword(url), shownUrl(url)];
  try {
    const t = parsePostgresUrl(url, {});
    out.push(t.shown);
    for (const code of ['28P01', '28000', '42501', '08P01', 'ECONNREFUSED', 'MENUCTL_NO_PASSWORD', 'SELF_SIGNED_CERT_IN_CHAIN', undefined]) {
      out.push(describeError(Object.assign(new Error(`driver says no`), { code }), t, 'connect').message);
    }
  } catch (err) {
    out.push((err as Error).message, String((err as Error).stack));
  }
  return out;
}

describe('no password in any message', () => {
  test.each([
    (pw: string) => `postgres://user:${pw}@db.example:5432/menus?table=team_a`,
    (pw: string) => `postgresql://user:${encodeURIComponent(pw)}@db.example/menus`,
    (pw: string) => `postgres://user:${pw}@db.example/menus?sslmode=require&table=Bad`,
    (pw: string) => `postgres://user@db.example/menus?password=${pw}`,
    (pw: string) => `postgres://user@db.example/menus?table=t&password=${pw}&tabel=x`,
    (pw: string) => `postgres://user@db.example/menus?password=${encodeURIComponent(pw)}&sslmode=${pw}`,
    (pw: string) => `postgres://user:${pw}@db.example:5432`,
    (pw: string) => `postgres://user:${pw}@`,
    (pw: string) => `mysql://user:${pw}@db.example/menus`,
  ])('%s', (form) => {
    fc.assert(fc.property(password, (pw) => {
      for (const out of outputs(form(pw))) expect(leaks(out, pw), out).toBe(false);
    }), { numRuns: 300 });
  });

  test('USER:PASSWORD with the host left out (no @ at all: with one, the text after it reads as the host)', () => {
    fc.assert(fc.property(password.map((pw) => pw.replaceAll('@', '')).filter((pw) => SECRET_LETTERS.some((c) => pw.includes(c))), (pw) => {
      for (const out of outputs(`postgres://user:${pw}`)) expect(leaks(out, pw), out).toBe(false);
    }), { numRuns: 300 });
  });

  test('the user name and host stay readable', () => {
    expect(hidePassword('postgres://ana:s3cr%3Ft@db.example:5432/menus?table=t&password=x')).toBe('postgres://ana:***@db.example:5432/menus?table=t&password=***');
    expect(parse('postgres://ana:s3cret@db.example/menus?table=t').shown).toBe('postgres://ana@db.example/menus?table=t');
    expect(shownUrl('git+https://ghp_token123@github.com/acme/menus.git#menuctl-state')).toBe('git+https://***@github.com/acme/menus.git#menuctl-state');
  });
});

describe('errors by code', () => {
  const t = { ...parse('postgres://ana@db.example/menus?table=t'), tables: { state: '"t_state"', history: '"t_state_history"', locks: '"t_locks"', schema: null } };
  const said = (code: string | undefined, stage: 'connect' | 'create' | 'read' | 'write' = 'read', message = 'whatever the server said') =>
    describeError(Object.assign(new Error(message), { code }), t, stage).message;

  test('a pooler\'s refusal that mentions a timeout is not "no answer"', () => {
    const m = said('08P01', 'connect', 'unsupported startup parameter: statement_timeout');
    expect(m).toContain('unsupported startup parameter: statement_timeout');
    expect(m).not.toMatch(/no answer/);
  });

  test('the text never decides: "timeout" in a message without a code is passed on as said', () => {
    expect(said(undefined, 'read', 'canceling statement due to statement timeout')).toBe('postgres://ana@db.example/menus?table=t: canceling statement due to statement timeout');
  });

  test('permission errors name the grant the stage needs', () => {
    expect(said('42501', 'connect')).toMatch(/GRANT CONNECT ON DATABASE menus TO ana/);
    expect(said('42501', 'create')).toMatch(/CREATE on the schema/);
    expect(said('42501', 'write')).toMatch(/GRANT SELECT, INSERT, UPDATE, DELETE ON "t_state", "t_state_history", "t_locks" TO ana.*USAGE ON SEQUENCE "t_state_history_seq_seq"/);
    expect(said('42501', 'write')).not.toMatch(/CREATE/);
    expect(said('42501', 'read')).toMatch(/GRANT SELECT ON/);
  });

  test.each([
    ['MENUCTL_CONNECT_TIMEOUT', /no answer/],
    ['ECONNREFUSED', /cannot connect.*server runs/],
    ['28P01', /check the user in the URL and the password/],
    ['3D000', /database name/],
    ['MENUCTL_NO_TLS', /does not offer TLS/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /sslrootcert=PATH.*sslmode=require/],
    ['25006', /read-only.*primary/],
  ])('%s', (code, expected) => {
    expect(said(code, 'connect')).toMatch(expected);
  });
});
