import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { startTestServer } from '../helpers/server.js';
import { actionBody, client, parserBody } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'menuctl-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durability', () => {
  it('a restart on the same file keeps every acknowledged write and the generated jwt secret', async () => {
    const data = join(dir, 'api.sqlite');
    // No jwtSecret: the server generates one and keeps it beside the database.
    const first = await startServer({ port: 0, data });
    const token = await first.mintToken(1);
    const api1 = client({ url: first.url, token });
    const action = (await api1('POST', '/api/actions', actionBody())).body.data;
    const parser = (await api1('POST', '/api/parsers', parserBody(action.id))).body.data;
    const app = (await api1('POST', '/api/apps', { app: { name: 'A', package_name: 'com.a.b', webhook_url: 'https://h.example' } })).body.data;
    await api1('DELETE', `/api/parsers/${parser.id}`);
    await first.close();
    expect(statSync(`${data}.jwt-secret`).mode & 0o777).toBe(0o600);

    const second = await startServer({ port: 0, data });
    try {
      // The old token still verifies: the secret survived the restart.
      const api2 = client({ url: second.url, token });
      expect((await api2('GET', `/api/actions/${action.id}`)).body.data).toEqual(action);
      const p = (await api2('GET', `/api/parsers/${parser.id}`)).body.data;
      expect(p.attributes.archived_at).not.toBeNull();
      expect((await api2('GET', `/api/apps/${app.id}`)).body.data).toEqual(app);
      // Ids continue after the old ones.
      const next = (await api2('POST', '/api/parsers', parserBody(action.id))).body.data;
      expect(Number(next.id)).toBeGreaterThan(Number(parser.id));
    } finally {
      await second.close();
    }
  });

  it('100 parallel creates produce 100 distinct ids, all stored', async () => {
    const s = await startTestServer();
    try {
      const api = client(s);
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? api('POST', '/api/actions', actionBody({ name: `a${i}` }))
          : api('POST', '/api/apps', { app: { name: `p${i}`, package_name: `com.example.p${i}` } })));
      expect(results.every((r) => r.status === 201)).toBe(true);
      const actionIds = new Set(results.filter((_, i) => i % 2 === 0).map((r) => r.body.data.id));
      const appIds = new Set(results.filter((_, i) => i % 2 === 1).map((r) => r.body.data.id));
      expect(actionIds.size).toBe(50);
      expect(appIds.size).toBe(50);
      expect((await api('GET', '/api/actions')).body.meta.count).toBe(50);
      expect((await api('GET', '/api/apps')).body.meta.count).toBe(50);
    } finally {
      await s.close();
    }
  });
});
