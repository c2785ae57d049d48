// lazyClient: the API client loaded on first use (cli/connect.ts), against the reference server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { lazyClient } from '../../src/api/lazy-client.js';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import { ClientClosedError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server?.close(); });

describe('lazyClient', () => {
  it('makes the client on the first call, not before, and only once', async () => {
    const made: ApiClient[] = [];
    const load = async (o: ClientOptions) => { const c = createClient(o); made.push(c); return c; };
    const client = lazyClient({ baseUrl: server.url, token: server.token }, load);
    expect(client.stats).toEqual({ requests: 0, retries: 0 });
    expect(made).toHaveLength(0);
    await Promise.all([client.listActions(), client.listOperators()]);
    expect(made).toHaveLength(1);
    await client.close();
  });

  it('sends nothing until a method is called, and closes cleanly unused', async () => {
    server.resetStats();
    const client = lazyClient({ baseUrl: server.url, token: server.token });
    await client.close();
    expect(server.stats().requests).toBe(0);
  });

  it('once closed, a call fails as closed and makes no new client', async () => {
    let loads = 0;
    const client = lazyClient({ baseUrl: server.url, token: server.token }, async (o) => { loads++; return createClient(o); });
    await client.listActions();
    await client.close();
    await expect(client.listActions()).rejects.toBeInstanceOf(ClientClosedError);
    expect(loads).toBe(1);
  });

  it('a client that failed to load closes without throwing: the failure was reported where it was used', async () => {
    const client = lazyClient({ baseUrl: server.url, token: server.token }, () => Promise.reject(new Error('cannot load undici')));
    await expect(client.listActions()).rejects.toThrow('cannot load undici');
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('behaves as the client once used: answers, counts its requests, and is not a thenable', async () => {
    server.resetStats();
    const client = lazyClient({ baseUrl: server.url, token: server.token });
    expect(await Promise.resolve(client)).toBe(client);
    const made = await client.createAction({ name: 'Lazy', root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
    const listed = await client.listActions();
    expect(listed.map((a) => a.id)).toContain(made.id);
    expect(await client.organizationId()).toBe(server.org);
    expect(client.stats.requests).toBe(2);
    expect(server.stats().requests).toBe(2);
    await client.close();
  });
});
