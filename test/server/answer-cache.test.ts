// The large-answer cache (issue 10, item 4) must never serve a stale or another tenant's answer:
// every write, by this server or another process on the same file, is seen by the next GET.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from '../../src/server/answer-cache.js';
import { openDb } from '../../src/server/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, type Call } from './http.js';

let s: TestServer;
let api: Call;
const names = (r: { body: { data: Array<{ attributes: { name: string; archived_at: string | null } }> } }) =>
  r.body.data.map((a) => a.attributes.name);

beforeAll(async () => {
  s = await startTestServer();
  api = client(s);
  // Enough actions for the listing to be worth keeping (over 64 KiB).
  for (let i = 0; i < 180; i++) await api('POST', '/api/actions', actionBody({ name: `Cached ${i}` }));
  const first = await fetch(`${s.url}/api/actions`, { headers: { Authorization: s.token } });
  expect(Number(first.headers.get('content-length'))).toBeGreaterThan(64 * 1024);
}, 60_000);
afterAll(() => s.close());

describe('large GET answers kept between requests', () => {
  it('the same answer twice while nothing changes, the second from the cache', async () => {
    const a = await api('GET', '/api/actions');
    s.resetStats();
    const b = await api('GET', '/api/actions');
    expect(b.body).toEqual(a.body);
    expect(a.body.meta.count).toBe(180);
    expect(s.stats().cacheHits).toBe(1);
  });

  it('a create, an update and an archive by this server are in the very next listing', async () => {
    await api('GET', '/api/actions');
    const created = await api('POST', '/api/actions', actionBody({ name: 'Fresh' }));
    s.resetStats();
    expect(names(await api('GET', '/api/actions'))).toContain('Fresh');
    // Built afresh after the write, then kept again.
    expect(s.stats().cacheHits).toBe(0);
    expect(names(await api('GET', '/api/actions'))).toContain('Fresh');
    expect(s.stats().cacheHits).toBe(1);
    await api('PATCH', `/api/actions/${created.body.data.id}`, actionBody({ name: 'Renamed' }));
    const after = names(await api('GET', '/api/actions'));
    expect(after).toContain('Renamed');
    expect(after).not.toContain('Fresh');
    await api('DELETE', `/api/actions/${created.body.data.id}`);
    const listed = (await api('GET', '/api/actions')).body.data.find((a: { id: string }) => a.id === created.body.data.id);
    expect(listed.attributes.archived_at).not.toBeNull();
  });

  it('a write by another process on the same database file is in the next listing', async () => {
    await api('GET', '/api/actions');
    await api('GET', '/api/actions');
    const other = await startTestServer({ data: s.dataFile });
    try {
      await client(other)('POST', '/api/actions', actionBody({ name: 'From elsewhere' }));
    } finally {
      await other.close();
    }
    s.resetStats();
    expect(names(await api('GET', '/api/actions'))).toContain('From elsewhere');
    expect(s.stats().cacheHits).toBe(0);
  });

  it("another organization never gets organization 1's answer, and a query string is its own answer", async () => {
    await api('GET', '/api/actions');
    const org2 = await client(s, await s.mintToken(2))('GET', '/api/actions');
    expect(org2.body).toEqual({ data: [], meta: { count: 0 } });
    const archived = await api('GET', '/api/actions?archived=true');
    expect(archived.body.data.every((a: { attributes: { archived_at: string | null } }) => a.attributes.archived_at !== null)).toBe(true);
  });
});

describe('AnswerCache', () => {
  it('keeps at most maxBytes, dropping the least recently used, and ignores small answers', () => {
    const db = openDb(':memory:');
    try {
      const cache = new AnswerCache(db, { minBytes: 10, maxBytes: 100 });
      cache.set('small', Buffer.alloc(5), cache.version());
      expect(cache.get('small')).toBeUndefined();
      cache.set('a', Buffer.alloc(40, 1), cache.version());
      cache.set('b', Buffer.alloc(40, 2), cache.version());
      expect(cache.get('a')?.[0]).toBe(1);
      cache.set('c', Buffer.alloc(40, 3), cache.version());
      expect(cache.get('b')).toBeUndefined();
      expect(cache.get('a')?.[0]).toBe(1);
      expect(cache.get('c')?.[0]).toBe(3);
    } finally {
      db.close();
    }
  });
});
