// sslmode against real servers (test/helpers/postgres.mjs): one with TLS (a self-signed
// certificate made for `localhost`) and one without. Which connections are encrypted is read from
// the server (pg_stat_ssl), not assumed.

import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { StateBackend } from '../../src/state/backend.js';
import { openPostgresBackend } from '../../src/state/postgres.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.mjs';
import { rejection } from '../helpers/rejection.js';

let tls: TestPostgres;
let plain: TestPostgres;
let admin: pg.Client;
const opened: StateBackend[] = [];
let tables = 0;

beforeAll(async () => {
  [tls, plain] = await Promise.all([startPostgres({ tls: true }), startPostgres()]);
  admin = new pg.Client({ connectionString: tls.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await Promise.all([tls?.stop(), plain?.stop()]);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
});

function open(url: string, env: NodeJS.ProcessEnv = {}): StateBackend {
  const b = openPostgresBackend(url, { env });
  opened.push(b);
  return b;
}

const on = (server: TestPostgres, params: string) => `${server.url}?table=t${++tables}&${params}`;

/** Whether menuctl's connections to the TLS server (the pool's, idle after a read) are encrypted. */
async function encrypted(): Promise<boolean[]> {
  const r = await admin.query<{ ssl: boolean }>("SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'menuctl'");
  return r.rows.map((row) => row.ssl);
}


describe('a server with TLS', () => {
  test.each(['require', 'prefer', 'no-verify'])('sslmode=%s encrypts without verifying the certificate', async (mode) => {
    const b = open(on(tls, `sslmode=${mode}`));
    await b.read();
    expect(await encrypted()).toEqual([true]);
  });

  test('no sslmode: prefer, as libpq, so encrypted', async () => {
    const b = open(on(tls, 'schema=public'));
    await b.read();
    expect(await encrypted()).toEqual([true]);
  });

  test('sslmode=disable: plain', async () => {
    const b = open(on(tls, 'sslmode=disable'));
    await b.read();
    expect(await encrypted()).toEqual([false]);
  });

  test('verify-full without its CA: refused, saying how to trust it or to use require', async () => {
    const b = open(on(tls, 'sslmode=verify-full'));
    const err = await rejection(b.read());
    expect(err.message).toContain(b.shown);
    expect(err.message).toMatch(/TLS certificate is not trusted.*sslrootcert=PATH.*sslmode=require/);
    expect(err.message).not.toContain(tls.password);
  });

  test('verify-ca with sslrootcert: the chain is checked, not the name (127.0.0.1 is not in the certificate)', async () => {
    const b = open(on(tls, `sslmode=verify-ca&sslrootcert=${encodeURIComponent(tls.tls!.cert)}`));
    await b.read();
    expect(await encrypted()).toEqual([true]);
  });

  test('PGSSLROOTCERT is read from the env given', async () => {
    const b = open(on(tls, 'sslmode=verify-ca'), { PGSSLROOTCERT: tls.tls!.cert });
    await b.read();
    expect(await encrypted()).toEqual([true]);
  });

  test('verify-full with sslrootcert but another host name in the URL than the certificate\'s: refused, naming the host check', async () => {
    const b = open(on(tls, `sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.tls!.cert)}`));
    const err = await rejection(b.read());
    expect(err.message).toMatch(/not made for the host in the URL.*name the host the certificate is for, or use sslmode=verify-ca/);
  });

  test('an sslrootcert that cannot be read is named', () => {
    expect(() => openPostgresBackend(on(tls, 'sslmode=verify-full&sslrootcert=%2Fno%2Fsuch.pem'), { env: {} })).toThrow(/cannot read sslrootcert \/no\/such\.pem/);
  });

  test('locks work over TLS', async () => {
    const url = on(tls, 'sslmode=require');
    const [a, b] = [open(url), open(url)];
    const lock = { id: 'l', scope: 's', who: 'w', host: 'h', command: 'apply', started: 'now' };
    await a.lock(lock, { timeoutMs: 0 });
    await a.verify(lock);
    await expect(b.lock({ ...lock, id: 'm' }, { timeoutMs: 0 })).rejects.toThrow(/locked by/);
    const all = await encrypted();
    expect(all.length).toBeGreaterThan(0);
    expect(all.every(Boolean)).toBe(true);
  });
});

describe('a server without TLS', () => {
  test('sslmode=require is refused, saying the server has no TLS', async () => {
    const b = open(on(plain, 'sslmode=require'));
    const err = await rejection(b.read());
    expect(err.message).toContain(b.shown);
    expect(err.message).toMatch(/does not offer TLS, and sslmode=require requires it/);
  });

  test('prefer (and no sslmode) connect plain', async () => {
    for (const params of ['sslmode=prefer', 'schema=public']) {
      const b = open(on(plain, params));
      const v = await b.write('x\n', null, 'm');
      expect(await b.read()).toEqual({ text: 'x\n', version: v });
    }
  });
});
