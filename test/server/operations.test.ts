import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';
import { actionBody, client } from './http.js';

describe('operations', () => {
  it('graceful shutdown finishes an in-flight request, then refuses new connections', async () => {
    const s = await startTestServer({ latencyMs: 400 });
    const api = client(s);
    const inFlight = api('POST', '/api/actions', actionBody());
    // Let the request reach the server before shutting down.
    await new Promise((r) => setTimeout(r, 100));
    const closed = s.close();
    const r = await inFlight;
    expect(r.status).toBe(201);
    await closed;
    await expect(fetch(`${s.url}/api/world_operators`)).rejects.toThrow();
  });

  it('writes one access-log line per request (method, path, status, ms) and never the token or query', async () => {
    const lines: string[] = [];
    const s = await startTestServer({ log: (l) => lines.push(l) });
    try {
      const api = client(s);
      await api('GET', '/api/actions?archived=false');
      await client(s, `Bearer ${s.token}`)('POST', '/api/apps', { app: { name: 'a', package_name: 'com.a.b' } });
      await client(s, 'not-a-token')('GET', `/api/apps?token=${s.token}`);
      await new Promise((r) => setImmediate(r));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^\S+Z GET \/api\/actions 200 \d+\.\dms$/);
      expect(lines[1]).toMatch(/ POST \/api\/apps 201 /);
      expect(lines[2]).toMatch(/ GET \/api\/apps 401 /);
      for (const l of lines) {
        expect(l).not.toContain(s.token);
        expect(l).not.toContain('not-a-token');
      }
    } finally {
      await s.close();
    }
  });

  it('counts requests per route pattern, trailing slash or not, and resets the counts', async () => {
    const s = await startTestServer();
    try {
      const api = client(s);
      const id = (await api('POST', '/api/actions', actionBody())).body.data.id;
      await api('GET', '/api/actions');
      await api('GET', '/api/actions/');
      await api('GET', `/api/actions/${id}/parsers`);
      expect(s.stats()).toEqual({
        requests: 4,
        byRoute: { 'POST /api/actions': 1, 'GET /api/actions': 2, 'GET /api/actions/:id/parsers': 1 },
        // Small answers are not kept (server/answer-cache.ts): none came from the cache.
        cacheHits: 0,
        // The one action, read by each of the two listings; the parser list is empty.
        rowsRead: 2,
      });
      s.resetStats();
      expect(s.stats()).toEqual({ requests: 0, byRoute: {}, cacheHits: 0, rowsRead: 0 });
    } finally {
      await s.close();
    }
  });
});
