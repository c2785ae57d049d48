// lazyClient: the API client loaded on first use (cli/connect.ts), against the reference server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { lazyClient } from '../../src/api/lazy-client.js';

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server?.close(); });

describe('lazyClient', () => {
  it('sends nothing until a method is called, and closes cleanly unused', async () => {
    server.resetStats();
    const client = lazyClient({ baseUrl: server.url, token: server.token });
    expect(client.stats).toEqual({ requests: 0, retries: 0 });
    await client.close();
    expect(server.stats().requests).toBe(0);
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
