// readLiveState against the reference server: what it reads, and how many requests it takes
// (counted at the server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createClient } from '../../src/api/client.js';
import { readLiveState } from '../../src/api/read-live.js';
import type { ApiClient } from '../../src/api/types.js';
import type { LiveAction } from '../../src/model/types.js';

let server: TestServer;
let client: ApiClient;
const ACTIONS = 12;

/** The real client with its parser lists read through `listParsers` (which may call the real one). */
function withParsers(listParsers: ApiClient['listParsers']): ApiClient {
  return {
    ...client,
    organizationId: () => client.organizationId(),
    listActions: () => client.listActions(),
    listApps: () => client.listApps(),
    listOperators: () => client.listOperators(),
    listParsers,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  client = createClient({ baseUrl: server.url, token: server.token, concurrency: 4 });
  for (let i = 0; i < ACTIONS; i++) {
    const a = await client.createAction({ name: `A${i}`, root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
    for (const category of ['ok', 'ko']) {
      await client.createParser(a.id, { category, status: 'succeeded', target_type: 'ussd', sender: null, regex: `${category}${i}`, user_message: '' });
    }
  }
  await client.createApp({ name: 'Agent', package_name: 'com.example.agent', webhook_url: 'https://h.example/x' });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('readLiveState', () => {
  it('reads everything in 3 + (wanted actions) requests', async () => {
    server.resetStats();
    const wanted = new Set(['A1', 'A2', 'A3', 'A4', 'A5']);
    const state = await readLiveState(client, { wantParsers: (a) => wanted.has(a.name), concurrency: 3 });
    expect(state.organization_id).toBe(server.org);
    expect(state.actions).toHaveLength(ACTIONS);
    expect(state.parsers).toHaveLength(10);
    expect(new Set(state.parsers.map((p) => p.action_id))).toEqual(
      new Set(state.actions.filter((a) => wanted.has(a.name)).map((a) => a.id)),
    );
    expect(state.apps.map((a) => a.package_name)).toEqual(['com.example.agent']);
    expect(state.apps_listed).toBe(true);
    expect(state.operators.length).toBeGreaterThan(100);
    expect(state.warnings).toEqual([]);
    expect(server.stats().byRoute).toEqual({
      'GET /api/actions': 1,
      'GET /api/apps': 1,
      'GET /api/world_operators': 1,
      'GET /api/actions/:id/parsers': 5,
    });
    expect(server.stats().requests).toBe(8);
  });

  it('never has a secret in the state it returns', async () => {
    const state = await readLiveState(client, { wantParsers: () => true, concurrency: 4 });
    const text = JSON.stringify(state);
    expect(text).not.toMatch(/"token"|webhook_secret/);
  });

  it('keeps at most `concurrency` parser requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const counting = withParsers(async (id: string) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await client.listParsers(id);
      } finally {
        inFlight--;
      }
    });
    await readLiveState(counting, { wantParsers: () => true, concurrency: 2 });
    expect(peak).toBe(2);
  });

  it('returns the parsers in the order of the actions, whatever order the answers come in', async () => {
    const actions = await client.listActions();
    // Later actions answer first: the slowest is the first.
    const delays = new Map(actions.map((a, i) => [a.id, (actions.length - i) * 3]));
    const reordering = withParsers(async (id: string) => {
      await new Promise((r) => setTimeout(r, delays.get(id)));
      return client.listParsers(id);
    });
    const state = await readLiveState(reordering, { wantParsers: () => true, concurrency: 4 });
    const order = [...new Set(state.parsers.map((p) => p.action_id))];
    expect(order).toEqual(actions.map((a) => a.id));
  });

  it('leaves a field it pools as it came when it is not a string (a client of another shape)', async () => {
    const odd = withParsers(async (id: string) => (await client.listParsers(id)).map((p) => ({ ...p, updated_at: undefined as unknown as string })));
    const state = await readLiveState(odd, { wantParsers: () => true, concurrency: 4 });
    expect(state.parsers).toHaveLength(2 * ACTIONS);
    expect(state.parsers.every((p) => p.updated_at === undefined)).toBe(true);
  });

  it('starts no further parser list once one has failed, and rejects with that failure', async () => {
    const actions = await client.listActions();
    const started: string[] = [];
    const failing = withParsers(async (id: string) => {
      started.push(id);
      if (id === actions[1]!.id) throw new Error('boom');
      return client.listParsers(id);
    });
    await expect(readLiveState(failing, { wantParsers: () => true, concurrency: 2 })).rejects.toThrow('boom');
    // The failure is seen at once by the worker that made it; the other worker finishes the list
    // it had started (at most one more) and takes no new one.
    expect(started.length).toBeLessThanOrEqual(3);
    expect(started.length).toBeLessThan(actions.length);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    await expect(readLiveState(client, { wantParsers: () => true, concurrency: 2, signal: controller.signal })).rejects.toThrow('interrupted');
  });
});

describe('readLiveState on a server without GET /api/apps', () => {
  it('reads each pinned app by id and says so', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const api = agent.get('http://legacy.test');
    const app = (id: string) => ({
      data: { id, type: 'app', attributes: { name: 'n', package_name: `p${id}`, webhook_url: null, organization_id: 1, archived_at: null, updated_at: 't', token: 'SECRET' } },
    });
    api.intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [] });
    api.intercept({ path: '/api/world_operators', method: 'GET' }).reply(200, { data: [] });
    api.intercept({ path: '/api/apps', method: 'GET' }).reply(404, { errors: [{ code: 'not_found' }] });
    api.intercept({ path: '/api/apps/3', method: 'GET' }).reply(200, app('3'));
    api.intercept({ path: '/api/apps/9', method: 'GET' }).reply(404, { errors: [{ code: 'not_found' }] });
    const legacy = createClient({ baseUrl: 'http://legacy.test', token: 'a.b.c', dispatcher: agent });
    try {
      const state = await readLiveState(legacy, { wantParsers: (_: LiveAction) => true, pinnedAppIds: ['3', '9', '3'], concurrency: 2 });
      expect(state.apps.map((a) => a.id)).toEqual(['3']);
      expect(state.apps_listed).toBe(false);
      expect(state.warnings).toHaveLength(1);
      expect(state.warnings[0]!.code).toBe('live.apps-not-listed');
      expect(state.warnings[0]!.message).toMatch(/no GET \/api\/apps: read 2 pinned app\(s\) by id/);
      expect(JSON.stringify(state)).not.toContain('SECRET');
      agent.assertNoPendingInterceptors();
    } finally {
      await legacy.close();
      await agent.close();
    }
  });
});
