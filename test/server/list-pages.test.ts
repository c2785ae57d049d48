// Issue 28 item 6: a list page reads only its own rows from SQLite (through an index), and the
// answer cache is keyed by the query the route understands, so walking pages or adding a
// throwaway parameter neither loads the whole list nor builds (and keeps) another answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, Statements } from '../../src/server/db.js';
import { ActionStore } from '../../src/server/store-actions.js';
import { AppStore } from '../../src/server/store-apps.js';
import { ParserStore } from '../../src/server/store-parsers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, parserBody, type Call } from './http.js';

describe('a list page reads only its rows', () => {
  let s: TestServer;
  let whole: TestServer;
  let api: Call;
  let actionId: string;

  beforeAll(async () => {
    s = await startTestServer({ pageSize: 10 });
    api = client(s);
    const ids: string[] = [];
    for (let i = 0; i < 35; i++) ids.push((await api('POST', '/api/actions', actionBody({ name: `A${i}` }))).body.data.id);
    for (const id of ids.slice(0, 5)) await api('DELETE', `/api/actions/${id}`);
    for (const id of [ids[7], ids[22]]) await api('DELETE', `/api/actions/${id}`);
    actionId = ids[3]!;
    for (let i = 0; i < 12; i++) await api('POST', '/api/parsers', parserBody(actionId, { category: `c${i}` }));
    // The same database answered in one page: what every page must be a slice of.
    whole = await startTestServer({ data: s.dataFile, pageSize: 100_000 });
  }, 60_000);
  afterAll(async () => {
    await whole.close();
    await s.close();
  });

  const cases: Array<[string, string, number]> = [
    ['actions', '/api/actions', 35],
    ['active actions', '/api/actions?archived=false', 28],
    ['archived actions', '/api/actions?archived=true', 7],
    ['parsers of an action', '', 12],
  ];
  for (const [label, listPath, total] of cases) {
    it(`${label}: every page is its slice of the whole list, with the same meta, and costs its own rows`, async () => {
      const path = listPath || `/api/actions/${actionId}/parsers`;
      const all = await client(whole)('GET', path);
      expect(all.body.meta.count).toBe(total);
      const sep = path.includes('?') ? '&' : '?';
      for (let page = 1; page <= Math.ceil(total / 10) + 1; page++) {
        s.resetStats();
        const r = await api('GET', `${path}${sep}page=${page}`);
        const slice = all.body.data.slice((page - 1) * 10, page * 10);
        expect(r.body.data).toEqual(slice);
        expect(r.body.meta).toEqual({ count: total });
        expect(s.stats().rowsRead).toBe(slice.length);
      }
    });
  }

  it('reads no rows past the end, and pages apps the same way', async () => {
    s.resetStats();
    expect((await api('GET', '/api/actions?page=999')).body).toEqual({ data: [], links: { next: null }, meta: { count: 35 } });
    expect(s.stats().rowsRead).toBe(0);
    for (let i = 0; i < 12; i++) await api('POST', '/api/apps', { app: { name: `app${i}`, package_name: `com.a.b${i}` } });
    s.resetStats();
    const second = await api('GET', '/api/apps?page=2');
    expect(second.body.data.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(['app10', 'app11']);
    expect(s.stats().rowsRead).toBe(2);
  });
});

describe('list queries use an index, never a table scan or a sort', () => {
  it('for every filter, the count and the page of actions, parsers and apps', () => {
    const db = openDb(':memory:');
    try {
      const seen: string[] = [];
      // Records each SQL text the stores prepare, to ask SQLite how it runs them.
      class Recording extends Statements {
        override get(sql: string) {
          seen.push(sql);
          return super.get(sql);
        }
      }
      const st = new Recording(db);
      for (const archived of [undefined, true, false]) {
        for (const list of [new ActionStore(st).list(1, archived), new ParserStore(st).listForAction(1, archived), new AppStore(st).list(1, archived)]) {
          list.count();
          list.rows(10, 20);
        }
      }
      expect(seen.length).toBe(18);
      for (const sql of seen) {
        const params = Array.from(sql.matchAll(/\?/g), () => 1);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
        // The scoped search: only the organization's (or action's) entries, from a covering index.
        expect(plan.some((d) => /^SEARCH \w+ USING COVERING INDEX \w+ \((organization_id|action_id)=\?/.test(d)), `${sql}\n${plan.join('\n')}`).toBe(true);
        expect(plan.filter((d) => /^SCAN (actions|parsers|apps)\b|TEMP B-TREE/.test(d)), sql).toEqual([]);
      }
    } finally {
      db.close();
    }
  });
});

describe('the answer cache is keyed by the query the route understands', () => {
  let s: TestServer;
  let api: Call;
  beforeAll(async () => {
    s = await startTestServer();
    api = client(s);
    // Over 64 KiB, so the listing is kept (answer-cache.ts).
    for (let i = 0; i < 180; i++) await api('POST', '/api/actions', actionBody({ name: `Cached ${i}` }));
  }, 60_000);
  afterAll(() => s.close());

  it('no page and page=1, a trailing slash, unknown parameters and their order: one kept answer', async () => {
    const first = await fetch(`${s.url}/api/actions`, { headers: { Authorization: s.token } });
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    s.resetStats();
    const same = ['/api/actions?page=1', '/api/actions/', '/api/actions?x=123', '/api/actions?y=1&page=1&x=2', '/api/actions/?page=1&x=123'];
    for (const path of same) {
      const r = await fetch(`${s.url}${path}`, { headers: { Authorization: s.token } });
      expect(Buffer.from(await r.arrayBuffer()).equals(bytes), path).toBe(true);
    }
    expect(s.stats().cacheHits).toBe(same.length);
    expect(s.stats().rowsRead).toBe(0);
  });

  it('a parameter the route understands is its own answer, then kept too', async () => {
    await api('GET', '/api/actions?archived=false');
    s.resetStats();
    const r = await api('GET', '/api/actions?x=9&archived=false&page=1');
    expect(r.body.meta.count).toBe(180);
    expect(s.stats().cacheHits).toBe(1);
    await api('GET', '/api/actions?archived=true');
    expect(s.stats().cacheHits).toBe(1);
  });

  it('a write still makes every kept page stale', async () => {
    await api('GET', '/api/actions?x=1');
    await api('POST', '/api/actions', actionBody({ name: 'After' }));
    s.resetStats();
    const r = await api('GET', '/api/actions?x=2');
    expect(r.body.meta.count).toBe(181);
    expect(s.stats().cacheHits).toBe(0);
  });

  it('links.next carries only the understood parameters, in their order', async () => {
    const paged = await startTestServer({ pageSize: 1 });
    try {
      const p = client(paged);
      for (const n of ['x', 'y']) await p('POST', '/api/actions', actionBody({ name: n }));
      expect((await p('GET', '/api/actions?utm=1&page=1&archived=false')).body.links).toEqual({ next: '?archived=false&page=2' });
      expect((await p('GET', '/api/actions?utm=1')).body.links).toEqual({ next: '?page=2' });
    } finally {
      await paged.close();
    }
  });
});
