// The client follows links.next on every list (issue 9 item 5), and only on the API's origin.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';
import { createClient } from '../../src/api/client.js';
import { nextLink, nextPath } from '../../src/api/pages.js';

describe('links.next', () => {
  for (const specOnly of [false, true]) {
    it(`reads every page of actions, parsers, apps and operators (${specOnly ? 'spec-only' : 'full'}, page size 2)`, async () => {
      const server = await startTestServer({ specOnly, pageSize: 2 });
      const client = createClient({ baseUrl: server.url, token: server.token });
      try {
        const names = ['a', 'b', 'c', 'd', 'e'];
        const actions = [];
        for (const name of names) {
          actions.push(await client.createAction({ name, root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps: [] }));
        }
        for (const category of ['x', 'y', 'z']) {
          await client.createParser(actions[0]!.id, { category, status: 'succeeded', target_type: 'ussd', sender: null, regex: category, user_message: '' });
        }
        for (const pkg of ['com.a.a', 'com.a.b', 'com.a.c']) await client.createApp({ name: pkg, package_name: pkg, webhook_url: null });
        expect((await client.listActions()).map((a) => a.name)).toEqual(names);
        expect((await client.listParsers(actions[0]!.id)).map((p) => p.category)).toEqual(['x', 'y', 'z']);
        const apps = await client.listApps();
        if (specOnly) expect(apps).toBeNull();
        else expect(apps!.map((a) => a.package_name)).toEqual(['com.a.a', 'com.a.b', 'com.a.c']);
        expect((await client.listOperators()).length).toBeGreaterThan(2);
        expect(server.stats().byRoute['GET /api/actions']).toBe(3);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }

  it('reads every page behind a proxy that serves the API under a path prefix', async () => {
    const server = await startTestServer({ specOnly: true, pageSize: 2 });
    // A stand-in for a reverse proxy (what the reference server cannot be itself): /menus/... -> /...
    const proxy = createServer((req, res) => {
      const upstream = new URL(server.url);
      const forward = httpRequest({
        host: upstream.hostname, port: upstream.port, method: req.method, headers: req.headers,
        path: (req.url ?? '/').replace(/^\/menus(?=\/)/, ''),
      }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const direct = createClient({ baseUrl: server.url, token: server.token });
    const behind = createClient({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/menus`, token: server.token });
    try {
      for (const name of ['a', 'b', 'c', 'd', 'e']) await direct.createAction({ name, root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
      expect((await behind.listActions()).map((a) => a.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(server.stats().byRoute['GET /api/actions']).toBe(3);
    } finally {
      await direct.close();
      await behind.close();
      await new Promise((done) => proxy.close(done));
      await server.close();
    }
  });

  it('resolves a next link on the same origin and base path, and refuses any other', () => {
    expect(nextPath('http://h:1', '/api/actions', '/api/actions?page=2')).toBe('/api/actions?page=2');
    expect(nextPath('http://h:1/v', '/api/actions', 'actions?page=2')).toBe('/api/actions?page=2');
    expect(nextPath('http://h:1/v', '/api/actions/a1/parsers', 'parsers?page=2')).toBe('/api/actions/a1/parsers?page=2');
    expect(nextPath('http://h:1', '/api/actions', 'http://h:1/api/actions?page=3')).toBe('/api/actions?page=3');
    expect(nextPath('http://h:1/v', '/api/actions', '/v/api/actions?page=2')).toBe('/api/actions?page=2');
    expect(() => nextPath('http://h:1', '/api/actions', 'http://evil.example/api/actions?page=2')).toThrow(/another origin/);
    expect(nextPath('http://h:1/v', '/api/actions', '?page=2')).toBe('/api/actions?page=2');
    expect(nextPath('http://h:1/v', '/api/actions/', '?page=2')).toBe('/api/actions/?page=2');
    // Root-relative from a service behind a path-prefix proxy: its root is the API's base.
    expect(nextPath('http://h:1/v', '/api/actions', '/api/actions?page=2')).toBe('/api/actions?page=2');
    expect(() => nextPath('http://h:1/v', '/api/actions', 'http://h:1/api/actions?page=2')).toThrow(/base path/);
    expect(() => nextPath('http://h:1/v', '/api/actions', '//evil.example/api/actions')).toThrow(/another origin/);
    expect(nextLink({ data: [], links: { next: null } })).toBeNull();
    expect(nextLink({ data: [] })).toBeNull();
  });
});
