// An app create whose answer is lost: apply finds the app by its package_name and reads its
// token and webhook secret back (the API returns them in every app response), so they are kept
// in the secrets file like a normal create, and never printed. Real server, --reset-rate 1:
// every write is committed and its connection dropped before the answer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { client } from '../server/http.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';

let server: TestServer;

beforeAll(async () => { server = await startTestServer({ resetRate: 1, faultSeed: 1 }); });
afterAll(async () => { await server.close(); });

describe('apply: an app create whose answer was lost', () => {
  it('keeps the recovered app\'s secrets in the secrets file, and prints none of them', async () => {
    const dir = tempDir();
    writeConfig(dir, configYaml([], { apps: ['com.example.lost'] }));
    const secretsFile = join(dir, 'secrets.json');
    const r = await runCli(['apply', '--yes', '--secrets-file', secretsFile], { env: envFor(server), cwd: dir });
    expect(r.code).toBe(0);

    const apps = await client(server)('GET', '/api/apps');
    expect(apps.body.data).toHaveLength(1);
    const live = apps.body.data[0];
    const doc = JSON.parse(readFileSync(secretsFile, 'utf8'));
    expect(doc).toEqual({
      'app["com.example.lost"]': { id: String(live.id), token: live.attributes.token, webhook_secret: live.attributes.webhook_secret },
    });
    expect(live.attributes.token).toMatch(/^[0-9a-f]{32}$/);
    expect(r.stdout).toMatch(/✓ create app\["com\.example\.lost"\] \(id \d+; found after a lost response, not created twice; secrets written to /);
    expect(r.stdout).toContain('Secrets of 1 created app written to');
    expect(r.stdout).not.toContain('NOT kept');
    for (const secret of [live.attributes.token, live.attributes.webhook_secret]) {
      expect(r.stdout).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  });

  it('with --discard-secrets, says which app\'s secrets were not kept, and prints none of them', async () => {
    const dir = tempDir();
    writeConfig(dir, configYaml([], { apps: ['com.example.dropped'] }));
    const r = await runCli(['apply', '--yes', '--discard-secrets'], { env: envFor(server), cwd: dir });
    expect(r.code).toBe(0);
    const live = (await client(server)('GET', '/api/apps')).body.data.find((a: { attributes: { package_name: string } }) => a.attributes.package_name === 'com.example.dropped');
    expect(r.stdout).toContain('✓ create app["com.example.dropped"]');
    expect(r.stdout).toContain('secrets discarded (--discard-secrets))');
    expect(r.stdout).toContain('Secrets NOT kept for 1 created app (read or rotate the token in the API):\n  - app["com.example.dropped"]: secrets discarded (--discard-secrets)\n');
    for (const secret of [live.attributes.token, live.attributes.webhook_secret]) {
      expect(r.stdout).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  });
});
