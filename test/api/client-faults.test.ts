// Retries and outcomes against the reference server's own fault injection (--fail-rate,
// --reset-rate, --rate-limit, --latency). The wait between attempts is injected as a no-op
// where the server does not care, so the tests stay fast; nothing here asserts timing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ClientClosedError, createClient, type ClientOptions, type RetryInfo } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import type { ResolvedAction } from '../../src/plan/types.js';

const noWait = async () => {};
const spec = (name: string): ResolvedAction => ({
  name, root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps: [{ kind: 'press', value: '1' }],
});

let server: TestServer | undefined;
let client: ApiClient | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'menuctl-faults-'));
  dirs.push(dir);
  return join(dir, 'api.sqlite');
}

async function setUp(faults: Parameters<typeof startTestServer>[0], options: Partial<ClientOptions> = {}) {
  server = await startTestServer(faults);
  client = createClient({ baseUrl: server.url, token: server.token, sleep: noWait, ...options });
  return { server, client };
}

/** Counts live actions named `name` through a fault-free server on the same database. */
async function countLive(dataFile: string, name: string): Promise<number> {
  const clean = await startTestServer({ data: dataFile });
  const reader = createClient({ baseUrl: clean.url, token: clean.token });
  try {
    return (await reader.listActions()).filter((a) => a.name === name).length;
  } finally {
    await reader.close();
    await clean.close();
  }
}

describe('idempotent requests are retried', () => {
  it('GETs survive a 50% 503 rate, and each retry is a request the server saw', async () => {
    const { server, client } = await setUp({ failRate: 0.5, faultSeed: 42 });
    server.resetStats();
    for (let i = 0; i < 20; i++) expect(Array.isArray(await client.listActions())).toBe(true);
    expect(client.stats.retries).toBeGreaterThan(0);
    expect(client.stats.requests).toBe(20 + client.stats.retries);
    expect(server.stats().byRoute['GET /api/actions']).toBe(client.stats.requests);
  });

  it('a PATCH whose connection is reset after the write is sent again, up to maxAttempts', async () => {
    const data = tempData();
    const seed = await setUp({ data });
    const created = await seed.client.createAction(spec('Reset me'));
    await seed.client.close();
    await seed.server.close();
    const { server: faulty, client: c } = await setUp({ data, resetRate: 1 }, { retry: { maxAttempts: 3 } });
    const err = await c.updateAction(created.id, { ...spec('Reset me'), root_code: '*2#' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: null, outcome: 'failed', retryable: true });
    expect(faulty.stats().byRoute['PATCH /api/actions/:id']).toBe(3);
  });
});

describe('POST is never sent twice blindly', () => {
  it('a 503 to a POST is a definite "not done": the client sends it again, and no name exists twice', async () => {
    const data = tempData();
    const { server, client } = await setUp({ data, failRate: 0.5, faultSeed: 3 });
    const names = ['Maybe 1', 'Maybe 2', 'Maybe 3', 'Maybe 4'];
    const outcomes = await Promise.all(names.map((n) => client.createAction(spec(n)).then(() => 'created', (e: unknown) => (e as ApiError).outcome)));
    expect(outcomes).not.toContain('unknown');
    // Sent again after a 503: more POSTs than creates, and each one that got its 201 exists once.
    expect(server.stats().byRoute['POST /api/actions']).toBeGreaterThan(names.length);
    await server.close();
    for (const [i, n] of names.entries()) expect(await countLive(data, n)).toBe(outcomes[i] === 'created' ? 1 : 0);
  });

  it('a reset after the write is outcome unknown, and the action does exist exactly once', async () => {
    const data = tempData();
    const { server, client } = await setUp({ data, resetRate: 1 });
    const err = await client.createAction(spec('Committed')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: null, outcome: 'unknown' });
    expect(server.stats().byRoute['POST /api/actions']).toBe(1);
    await server.close();
    expect(await countLive(data, 'Committed')).toBe(1);
  });

  it('a POST that timed out waiting for the answer is outcome unknown', async () => {
    const { server, client } = await setUp({ latencyMs: 2500 }, { timeoutMs: 100 });
    const err = await client.createAction(spec('Slow')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: null, outcome: 'unknown', networkCode: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(server.stats().byRoute['POST /api/actions']).toBe(1);
  });

  it('a GET that timed out is retried, then fails as transient', async () => {
    const { server, client } = await setUp({ latencyMs: 2500 }, { timeoutMs: 100, retry: { maxAttempts: 2 } });
    const err = await client.listActions().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: null, outcome: 'failed', retryable: true, networkCode: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(server.stats().byRoute['GET /api/actions']).toBe(2);
  });
});

describe('rate limits', () => {
  it('429s are retried after Retry-After (POST included), and every create happens once', async () => {
    const retries: RetryInfo[] = [];
    const { client, server } = await setUp({ rateLimit: 5 }, { sleep: undefined, concurrency: 8, onRetry: (i) => retries.push(i) });
    const names = Array.from({ length: 10 }, (_, i) => `Limited ${i}`);
    const created = await Promise.all(names.map((n) => client.createAction(spec(n))));
    expect(created.map((a) => a.name)).toEqual(names);
    const postRetries = retries.filter((r) => r.method === 'POST');
    expect(postRetries.length).toBeGreaterThan(0);
    expect(postRetries.every((r) => r.reason === '429')).toBe(true);
    // Retry-After is whole seconds: each 429 waited at least one.
    expect(postRetries.every((r) => r.delayMs >= 1000)).toBe(true);
    expect(server.stats().byRoute['POST /api/actions']).toBe(10 + postRetries.length);
    const live = await client.listActions();
    for (const n of names) expect(live.filter((a) => a.name === n)).toHaveLength(1);
  });
});

describe('connection refused', () => {
  it('is retried for any method (the request never left), then fails as transient', async () => {
    const port = await freePort();
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'x.y.z', sleep: noWait, retry: { maxAttempts: 3 } });
    const err = await client.createAction(spec('Nowhere')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: null, outcome: 'failed', retryable: true, networkCode: 'ECONNREFUSED' });
    expect((err as Error).message).toMatch(/connection refused/);
    expect(client.stats).toEqual({ requests: 3, retries: 2 });
  });

  it('names the base URL it could not reach, without the credentials in it', async () => {
    const port = await freePort();
    client = createClient({ baseUrl: `http://bob:pw123@127.0.0.1:${port}/`, token: 'x.y.z', sleep: noWait, retry: { maxAttempts: 1 } });
    const err = await client.listActions().catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `GET /api/actions: no answer: connection refused by http://127.0.0.1:${port} (is the API running at that URL?)`,
    );
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('closing the client', () => {
  it('ends a call waiting to retry at once, without sending it again', async () => {
    // Every answer a 503, and an hour before the retry (jitter pinned near its top), on the real
    // timer: the call can only end within the test's time-out if closing ends its wait.
    server = await startTestServer({ failRate: 1, faultSeed: 1 });
    const hour = 3_600_000;
    client = createClient({
      baseUrl: server.url, token: server.token, readWaitMs: 2 * hour, retry: { baseMs: hour, capMs: hour, budgetMs: 2 * hour }, random: () => 0.99,
    });
    const pending = client.listActions();
    const outcome = pending.then(() => 'answered', (e: Error) => (e instanceof ClientClosedError ? 'closed' : e.name));
    const s = server;
    await vi.waitFor(() => expect(s.stats().requests).toBe(1));
    await client.close();
    expect(await outcome).toBe('closed');
    expect(server.stats().requests).toBe(1);
  });

  it('does not send a call that was queued for a slot when the client closed: a definite failure, no write', async () => {
    server = await startTestServer({ latencyMs: 300 });
    client = createClient({ baseUrl: server.url, token: server.token, concurrency: 1 });
    const reading = client.listActions();
    const creating = client.createAction(spec('Queued')).then(() => 'created', (e: Error) => (e instanceof ClientClosedError ? 'closed' : e.message));
    const s = server;
    await vi.waitFor(() => expect(s.stats().requests).toBe(1));
    await client.close();
    expect(await creating).toBe('closed');
    await reading;
    expect(server.stats().byRoute['POST /api/actions'] ?? 0).toBe(0);
  });

});
