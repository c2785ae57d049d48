// An app create whose answer is lost against the API as specified (issue 9 item 3): there is
// no apps index to look it up, so the record keeps it as in flight and the next plan stops,
// naming the app, what happened and both ways out; `menuctl import` then completes the secrets file from
// GET /api/apps/{id}. Zero duplicates. The first server commits every write and drops the
// answer (--reset-rate 1); the second serves the same database normally.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, writeRequests } from '../helpers/server.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';

function appIds(dataFile: string): string[] {
  const db = new Database(dataFile, { readonly: true });
  try {
    return (db.prepare("SELECT id FROM apps WHERE package_name = 'com.example.lost'").all() as { id: number }[]).map((r) => String(r.id));
  } finally {
    db.close();
  }
}

describe('an app create lost in flight, spec-only', () => {
  it('stops the next plan with what to do, and never creates the app twice', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'menuctl-inflight-')), 'api.sqlite');
    const dir = tempDir();
    writeConfig(dir, configYaml([], { apps: ['com.example.lost'] }));
    const args = ['apply', '--yes', '--secrets-file', 'secrets.json'];

    const lossy = await startTestServer({ data, specOnly: true, resetRate: 1, faultSeed: 1 });
    const first = await runCli(args, { env: envFor(lossy), cwd: dir });
    const port = new URL(lossy.url).port;
    await lossy.close();
    expect(first.code, first.stdout + first.stderr).toBe(1);
    // What happened is recorded: the connection was reset after the create was sent.
    expect(readFileSync(join(dir, 'menuctl.lock'), 'utf8')).toMatch(/"address":"app\[\\"com.example.lost\\"\]","id":null,"pending":"create","lost":"connection reset"/);
    expect(appIds(data)).toHaveLength(1);

    // The same URL: the record is kept per API (base URL and organization).
    const server = await startTestServer({ data, specOnly: true, port: Number(port) });
    try {
      const env = envFor(server);
      server.resetStats();
      const stopped = await runCli(args, { env, cwd: dir });
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toContain('plan.create-in-flight');
      expect(stopped.stderr).toMatch(/the create of app\["com\.example\.lost"\] and its answer was lost \(connection reset\).*menuctl import 'app\["com\.example\.lost"\]' ID.*--recreate 'app\["com\.example\.lost"\]'/s);
      expect(writeRequests(server)).toBe(0);

      const [id] = appIds(data);
      const imported = await runCli(['import', 'app["com.example.lost"]', id!], { env, cwd: dir });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain(`Imported app["com.example.lost"] as live id ${id} (its create was in flight in the record: resolved)`);
      const pinned = await runCli(args, { env, cwd: dir });
      expect(pinned.code, pinned.stderr).toBe(0);
      expect(pinned.stdout).toContain('Completed the secrets file');
      expect(appIds(data)).toEqual([id]);
      expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))['app["com.example.lost"]']).toMatchObject({ id, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(readFileSync(join(dir, 'menuctl.lock'), 'utf8')).toMatch(new RegExp(`"address":"app\\[\\\\"com.example.lost\\\\"\\]","id":"${id}"`));
      expect(writeRequests(server)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('--recreate confirms a create that did not happen; it names only in-flight creates', async () => {
    const dir = tempDir();
    writeConfig(dir, configYaml([], { apps: ['com.example.gone'] }));
    const server = await startTestServer({ specOnly: true });
    try {
      const key = `${server.url} org 1`;
      writeConfig(dir, [
        JSON.stringify({ scope: key, address: 'app["com.example.gone"]', id: null, pending: 'create' }),
      ].join('\n') + '\n', 'menuctl.lock');
      const args = ['apply', '--yes', '--secrets-file', 'secrets.json'];
      expect((await runCli(args, { env: envFor(server), cwd: dir })).stderr).toContain('plan.create-in-flight');
      const wrong = await runCli([...args, '--recreate', 'app["com.example.other"]'], { env: envFor(server), cwd: dir });
      expect(wrong.stderr).toContain('plan.recreate-unknown');
      const r = await runCli([...args, '--recreate', 'app["com.example.gone"]'], { env: envFor(server), cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(server.stats().byRoute['POST /api/apps']).toBe(1);
      expect((await runCli(args, { env: envFor(server), cwd: dir })).stdout).toContain('No changes');
    } finally {
      await server.close();
    }
  });
});
