// `serve --spec-only` and `--page-size`: the reference server with every extension off, and
// lists in pages (docs/api.md, Spec-only mode and Lists).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, parserBody, type Call } from './http.js';

describe('spec-only mode', () => {
  let s: TestServer;
  let api: Call;
  beforeAll(async () => {
    s = await startTestServer({ specOnly: true });
    api = client(s);
  });
  afterAll(() => s.close());

  it('has no GET /api/apps: it answers like an unknown route, while POST and GET by id work', async () => {
    const list = await api('GET', '/api/apps');
    expect(list.status).toBe(404);
    expect(list.body.errors[0]).toMatchObject({ code: 'not_found', detail: 'no route for /api/apps' });
    const created = await api('POST', '/api/apps', { app: { name: 'A', package_name: 'com.example.a' } });
    expect(created.status).toBe(201);
    expect((await api('GET', `/api/apps/${created.body.data.id}`)).status).toBe(200);
  });

  it('lists without meta, ignores ?archived= and keeps archived resources in the list', async () => {
    const a = (await api('POST', '/api/actions', actionBody({ name: 'Archived one' }))).body.data;
    await api('DELETE', `/api/actions/${a.id}`);
    for (const query of ['', '?archived=false', '?archived=maybe']) {
      const r = await api('GET', `/api/actions${query}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['data']);
      expect(r.body.data.map((x: { id: string }) => x.id)).toContain(a.id);
    }
    const parsers = await api('GET', `/api/actions/${a.id}/parsers?archived=true`);
    expect(Object.keys(parsers.body)).toEqual(['data']);
    expect(Object.keys((await api('GET', '/api/world_operators')).body)).toEqual(['data']);
  });

  it('answers PATCH of an action with 204 and no body, and the change is made', async () => {
    const a = (await api('POST', '/api/actions', actionBody({ name: 'Patched' }))).body.data;
    const patch = await fetch(`${s.url}/api/actions/${a.id}`, {
      method: 'PATCH',
      headers: { Authorization: s.token, 'Content-Type': 'application/json' },
      body: JSON.stringify(actionBody({ name: 'Patched', root_code: '*1#' })),
    });
    expect(patch.status).toBe(204);
    expect(await patch.text()).toBe('');
    expect(patch.headers.get('content-type')).toBeNull();
    expect((await api('GET', `/api/actions/${a.id}`)).body.data.attributes.root_code).toBe('*1#');
    // Parsers' PATCH answer is shown by the spec ("The updated Parser"): unchanged.
    const p = (await api('POST', '/api/parsers', parserBody(a.id))).body.data;
    const pp = await api('PATCH', `/api/parsers/${p.id}`, { parser: { regex: 'x' } });
    expect(pp.status).toBe(200);
    expect(pp.body.data.attributes.regex).toBe('x');
  });
});

describe('paging', () => {
  for (const specOnly of [false, true]) {
    it(`pages every list with links.next (${specOnly ? 'spec-only' : 'full'})`, async () => {
      const s = await startTestServer({ specOnly, pageSize: 3 });
      try {
        const api = client(s);
        const ids: string[] = [];
        for (let i = 0; i < 7; i++) ids.push((await api('POST', '/api/actions', actionBody({ name: `A${i}` }))).body.data.id);
        const seen: string[] = [];
        let path: string | null = '/api/actions';
        const pages: unknown[] = [];
        while (path !== null) {
          const r = await api('GET', path);
          expect(r.status).toBe(200);
          expect(r.body.data.length).toBeLessThanOrEqual(3);
          seen.push(...r.body.data.map((x: { id: string }) => x.id));
          pages.push(r.body);
          // Relative to the page it came from (JSON:API links are URI references).
          const next: string | null = r.body.links.next;
          path = next === null ? null : ((u) => u.pathname + u.search)(new URL(next, `http://api.test${path}`));
        }
        expect(seen).toEqual(ids);
        expect(pages).toHaveLength(3);
        // The spec writes the list as GET /api/actions/: its links lead on from there too.
        const slashed: string[] = [];
        for (let at: string | null = '/api/actions/'; at !== null;) {
          const r = await api('GET', at);
          expect(r.status).toBe(200);
          slashed.push(...r.body.data.map((x: { id: string }) => x.id));
          const next: string | null = r.body.links.next;
          at = next === null ? null : ((u) => u.pathname + u.search)(new URL(next, `http://api.test${at}`));
        }
        expect(slashed).toEqual(ids);
        expect((pages[0] as { links: unknown }).links).toEqual({ next: '?page=2' });
        expect((pages[2] as { links: unknown }).links).toEqual({ next: null });
        if (specOnly) expect(pages[0]).not.toHaveProperty('meta');
        else expect((pages[0] as { meta: unknown }).meta).toEqual({ count: 7 });
        expect((await api('GET', '/api/actions?page=9')).body.data).toEqual([]);
        const bad = await api('GET', '/api/actions?page=0');
        expect(bad.status).toBe(400);
        expect(bad.body.errors[0].source).toEqual({ parameter: 'page' });
      } finally {
        await s.close();
      }
    });
  }

  it('keeps the spec\'s own query parameters in links.next (spec-only), dropping only the extensions', async () => {
    const s = await startTestServer({ specOnly: true, pageSize: 2 });
    try {
      const r = await client(s)('GET', '/api/world_operators?country=ke&archived=false');
      expect(r.body.links.next).toBe('?country=ke&page=2');
    } finally {
      await s.close();
    }
  });

  it('keeps the other query parameters in links.next (full mode)', async () => {
    const s = await startTestServer({ pageSize: 1 });
    try {
      const api = client(s);
      for (const n of ['x', 'y']) await api('POST', '/api/actions', actionBody({ name: n }));
      const r = await api('GET', '/api/actions?archived=false');
      expect(r.body.links.next).toBe('?archived=false&page=2');
    } finally {
      await s.close();
    }
  });
});
