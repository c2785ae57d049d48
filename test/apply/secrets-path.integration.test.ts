// The secrets file's path is checked before the first write (issue 10 items 9 and 13): a FIFO
// is refused instead of blocking, a name too long for the file system is refused, and a long
// name that the file system takes works (its temp name no longer grows with it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, writeRequests, type TestServer } from '../helpers/server.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });

async function applyWith(secretsFile: string, pkg: string) {
  const dir = tempDir();
  writeConfig(dir, configYaml([], { apps: [pkg] }));
  server.resetStats();
  const r = await runCli(['apply', '--yes', '--secrets-file', secretsFile, '--record', join(dir, 'menuctl.lock')], { env: envFor(server), cwd: dir });
  return { r, writes: writeRequests(server), dir };
}

describe('apply --secrets-file: the path is checked before any write', () => {
  it('refuses a FIFO at once, and writes nothing to the API', async () => {
    const fifo = join(tempDir(), 'secrets.fifo');
    execFileSync('mkfifo', [fifo]);
    const { r, writes } = await applyWith(fifo, 'com.example.fifo');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/it is a FIFO \(named pipe\), not a regular file/);
    expect(writes).toBe(0);
  });

  it('refuses a file name longer than 255 bytes, and writes nothing to the API', async () => {
    const { r, writes } = await applyWith(join(tempDir(), `${'s'.repeat(260)}.json`), 'com.example.long');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bytes long; file systems allow 255/);
    expect(writes).toBe(0);
  });

  it('keeps the token in a secrets file whose name is 250 characters long', async () => {
    const file = join(tempDir(), `${'s'.repeat(245)}.json`);
    const { r } = await applyWith(file, 'com.example.twofifty');
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc['app["com.example.twofifty"]'].token).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('apply --record: the record is checked before any write', () => {
  it('refuses a FIFO as the record, and a record whose directory does not exist, writing nothing to the API', async () => {
    const fifo = join(tempDir(), 'menuctl.lock');
    execFileSync('mkfifo', [fifo]);
    for (const [record, message] of [[fifo, /it is a FIFO \(named pipe\), not a regular file/], [join(tempDir(), 'missing', 'menuctl.lock'), /its directory .*missing does not exist/]] as const) {
      const dir = tempDir();
      writeConfig(dir, configYaml([{ name: 'A' }]));
      server.resetStats();
      const r = await runCli(['apply', '--yes', '--record', record], { env: envFor(server), cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(writeRequests(server)).toBe(0);
    }
  });
});

describe('apply: secrets to complete are checked before any write', () => {
  it('refuses a secrets file that could not take the tokens it lacks, before the plan\'s first write', async () => {
    const dir = tempDir();
    writeConfig(dir, configYaml([], { apps: ['com.example.complete'] }));
    expect((await runCli(['apply', '--yes', '--secrets-file', 'first.json'], { env: envFor(server), cwd: dir })).code).toBe(0);
    writeConfig(dir, configYaml([{ name: 'New action' }], { apps: ['com.example.complete'] }));
    server.resetStats();
    const r = await runCli(['apply', '--yes', '--secrets-file', `${'s'.repeat(260)}.json`], { env: envFor(server), cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bytes long; file systems allow 255.*Nothing was changed/);
    expect(writeRequests(server)).toBe(0);
  });
});
