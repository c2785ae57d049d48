// `menuctl serve --data FILE`: the database path is checked before anything is created, with
// one clear message whether or not a secret was given.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db.js';
import { startServer } from '../../src/server/index.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'menuctl-serve-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (args: string[], env: Record<string, string> = {}) =>
  runCli(['serve', '--port', '0', '--no-access-log', ...args], { env, cwd: dir, signal: AbortSignal.abort() });

describe('serve --data in a directory that does not exist', () => {
  const data = join(dir, 'nonexistent', 'db.sqlite');
  const expected = `Error: cannot start the server: the directory of the database ${data} does not exist ` +
    `(${join(dir, 'nonexistent')}): create it, or pass another --data (or --data :memory:)\n`;

  it.each([
    ['without a secret', [], {}],
    ['with --jwt-secret', ['--jwt-secret', 's'], {}],
    ['with MENUCTL_JWT_SECRET', [], { MENUCTL_JWT_SECRET: 's' }],
  ])('%s: one message naming the path and what to do', async (_name, extra, env) => {
    const r = await serve(['--data', data, ...extra], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(expected);
    expect(r.stdout).toBe('');
  });

  it('says so when a parent of the database is a file', async () => {
    writeFileSync(join(dir, 'plain-file'), '');
    const r = await serve(['--data', join(dir, 'plain-file', 'db.sqlite')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'plain-file')} is not a directory`);
    expect(r.stderr).not.toContain('ENOTDIR');
  });

  it('startServer gives the same message (demo and tests use it directly)', async () => {
    await expect(startServer({ port: 0, data, jwtSecret: 's' })).rejects.toThrow(`the directory of the database ${data} does not exist`);
  });
});

describe('the database file', () => {
  it('is created readable by its owner only (0600), with its -wal and -shm, since it holds app secrets', async () => {
    const data = join(dir, 'private.sqlite');
    const server = await startServer({ port: 0, data, jwtSecret: 's' });
    try {
      const token = await server.mintToken(1);
      const res = await fetch(`${server.url}/api/apps`, {
        method: 'POST', headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ app: { name: 'a', package_name: 'com.a.b', webhook_url: 'https://h.example/x' } }),
      });
      expect(res.status).toBe(201);
      for (const file of [data, `${data}-wal`, `${data}-shm`]) {
        expect({ file, mode: (statSync(file).mode & 0o777).toString(8) }).toEqual({ file, mode: '600' });
      }
    } finally {
      await server.close();
    }
  });

  it('keeps the mode of a database that already exists', async () => {
    const data = join(dir, 'existing.sqlite');
    writeFileSync(data, '', { mode: 0o640 });
    chmodSync(data, 0o640);
    const server = await startServer({ port: 0, data, jwtSecret: 's' });
    await server.close();
    expect((statSync(data).mode & 0o777).toString(8)).toBe('640');
  });
});

describe('a startup that fails after the database is opened', () => {
  /** Descriptors of this process open on `file` (Linux /proc): a leaked handle keeps the file locked. */
  const openHandles = (file: string): number =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try { return readlinkSync(`/proc/self/fd/${fd}`) === file; } catch { return false; }
    }).length;

  it.runIf(existsSync('/proc/self/fd'))('closes the database when the JWT secret cannot be read', async () => {
    const data = join(dir, 'bad-secret.sqlite');
    mkdirSync(`${data}.jwt-secret`); // a directory: reading the secret fails with EISDIR
    await expect(startServer({ port: 0, data })).rejects.toThrow(/EISDIR/);
    expect(openHandles(data)).toBe(0);
  });

  it.runIf(existsSync('/proc/self/fd'))('closes the database when its schema is newer than this menuctl', async () => {
    const data = join(dir, 'future.sqlite');
    const db = new Database(data);
    db.pragma('user_version = 999');
    db.close();
    expect(() => openDb(data)).toThrow('database schema version 999 is newer');
    expect(openHandles(data)).toBe(0);
  });
});

describe('a --data or --host that cannot be used', () => {
  it('a directory as --data is named as one, with what to pass', async () => {
    mkdirSync(join(dir, 'a-directory'));
    const r = await serve(['--data', join(dir, 'a-directory'), '--jwt-secret', 's']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: cannot start the server: the database ${join(dir, 'a-directory')} is a directory: pass the path of a file (it is created if missing), or --data :memory:\n`);
  });

  it('a file that is not a SQLite database is named, with what to pass', async () => {
    writeFileSync(join(dir, 'config.yaml'), 'version: 1\n'.repeat(100));
    const r = await serve(['--data', join(dir, 'config.yaml'), '--jwt-secret', 's']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: cannot start the server: ${join(dir, 'config.yaml')} is not a SQLite database: pass a database menuctl serve made, a new path, or --data :memory:\n`);
  });

  it('a --host this machine cannot listen on says what to give', async () => {
    const r = await serve(['--data', ':memory:', '--jwt-secret', 's', '--host', 'no-such-host.invalid']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: cannot start the server: --host no-such-host.invalid is not an address of this machine: use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or one of its own addresses\n');
  });
});
