// Only what the reference server cannot be made to do: malformed JSON, wrong shapes, a
// Retry-After HTTP-date, a server without GET /api/apps, a proxy's non-JSON error page.
// (nock does not intercept undici.request: undici's MockAgent is injected as the dispatcher.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { createClient, type RetryInfo } from '../../src/api/client.js';
import { DEFAULT_RETRY_POLICY } from '../../src/api/retry.js';
import { ApiError, ResponseShapeError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';

const ORIGIN = 'http://api.test';
let agent: MockAgent;
let client: ApiClient;
let retries: RetryInfo[];
const NOW = Date.parse('2025-06-01T12:00:00Z');

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  retries = [];
  client = createClient({
    baseUrl: ORIGIN, token: 'header.payload.sig', dispatcher: agent,
    sleep: async () => {}, random: () => 0, now: () => NOW, onRetry: (i) => retries.push(i),
  });
});
afterEach(async () => {
  await client.close();
  await agent.close();
});

const pool = () => agent.get(ORIGIN);
const action = (steps: unknown = ['1']) => ({
  id: 'ab12cd34', type: 'custom_action',
  attributes: { name: 'A', root_code: '*1#', transport_type: 'ussd', organization_id: 1, archived_at: null, updated_at: 't', operators: [], steps },
});
const spec = { name: 'A', root_code: '*1#', transport_type: 'ussd' as const, operator_ids: [1], steps: [] };

describe('responses of the wrong shape', () => {
  it('name the request and the field', async () => {
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [action(), action(), action(), action('x')] });
    const err = await client.listActions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    // Three actions of this API's shape came before it: the URL is the API's, so no hint to check it.
    expect((err as Error).message).toBe('GET /api/actions: data[3].attributes.steps must be array');
    expect(err).toMatchObject({ outcome: 'failed', retryable: false, code: 'response_shape' });
  });

  it("a list that is not this API's at all, on its first page, says to check the URL; a later page does not", async () => {
    const hint = ': this is not an answer of the Mobile Menu Automation API as specified (check --api-url / MENUCTL_API_URL)';
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: { items: [] } });
    expect(((await client.listActions().catch((e: unknown) => e)) as Error).message).toBe(`GET /api/actions: data must be array${hint}`);
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [{ id: 1, title: 'x' }] });
    expect(((await client.listActions().catch((e: unknown) => e)) as Error).message).toMatch(/^GET \/api\/actions: data\[0\]\.\S+ .*check --api-url/);
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [action()], links: { next: '/api/actions?page=2' } });
    pool().intercept({ path: '/api/actions?page=2', method: 'GET' }).reply(200, { data: 'gone' });
    expect(((await client.listActions().catch((e: unknown) => e)) as Error).message).toBe('GET /api/actions?page=2: data must be array');
  });

  it('a malformed JSON body is a clear error, and for a POST the outcome is unknown (the write happened)', async () => {
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, '{"data": [');
    const get = await client.listActions().catch((e: unknown) => e);
    expect((get as Error).message).toMatch(/^GET \/api\/actions: 200 response is not valid JSON/);
    pool().intercept({ path: '/api/actions', method: 'POST' }).reply(201, '<html>ok</html>');
    const post = await client.createAction(spec).catch((e: unknown) => e);
    expect(post).toMatchObject({ outcome: 'unknown', status: 201 });
  });

  it('a created app without its token is refused (its secrets would be lost silently)', async () => {
    const app = { id: '5', type: 'app', attributes: { name: 'a', package_name: 'p', webhook_url: null, organization_id: 1, archived_at: null, updated_at: 't' } };
    pool().intercept({ path: '/api/apps', method: 'POST' }).reply(201, { data: app });
    const err = await client.createApp({ name: 'a', package_name: 'p', webhook_url: null }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('POST /api/apps: data.attributes.token is missing');
    expect(err).toMatchObject({ outcome: 'unknown' });
  });
});

describe('Retry-After', () => {
  it('honours an HTTP-date', async () => {
    const at = new Date(NOW + 3000).toUTCString();
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(429, { errors: [] }, { headers: { 'retry-after': at } });
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [] });
    expect(await client.listActions()).toEqual([]);
    expect(retries).toEqual([{ method: 'GET', path: '/api/actions', attempt: 1, delayMs: 3000, reason: '429' }]);
  });

  it('uses backoff for 503s and stops after maxAttempts', async () => {
    const max = DEFAULT_RETRY_POLICY.maxAttempts;
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(503, 'busy').times(max);
    const err = await client.listActions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, retryable: true, outcome: 'failed' });
    expect((err as Error).message).toBe('GET /api/actions: 503 unavailable');
    expect(retries.map((r) => r.attempt)).toEqual(Array.from({ length: max - 1 }, (_, i) => i + 1));
    expect(client.stats).toEqual({ requests: max, retries: max - 1 });
  });

  it('429s do not use up attempts: they are retried past maxAttempts, within the time budget', async () => {
    const max = DEFAULT_RETRY_POLICY.maxAttempts;
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(429, { errors: [] }, { headers: { 'retry-after': '1' } }).times(max + 5);
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [action()] });
    expect(await client.listActions()).toHaveLength(1);
    expect(client.stats).toEqual({ requests: max + 6, retries: max + 5 });
  });

  it("a 429's Retry-After holds back the client's other requests too (the whole run slows down)", async () => {
    const slept: number[] = [];
    const c = createClient({
      baseUrl: ORIGIN, token: 'header.payload.sig', dispatcher: agent,
      sleep: async (ms) => { slept.push(ms); }, random: () => 0, now: () => NOW,
    });
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(429, { errors: [] }, { headers: { 'retry-after': '7' } });
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [] });
    await c.listActions();
    slept.length = 0;
    // Another request, which never saw the 429 itself, waits out the same 7 s before it is sent.
    pool().intercept({ path: '/api/world_operators', method: 'GET' }).reply(200, { data: [] });
    await c.listOperators();
    expect(slept).toEqual([7000]);
    await c.close();
  });

  it("a request already queued for a slot when a 429 arrives waits out its Retry-After too", async () => {
    const log: string[] = [];
    const c = createClient({
      baseUrl: ORIGIN, token: 'header.payload.sig', dispatcher: agent, concurrency: 1,
      sleep: async (ms) => { log.push(`sleep ${ms}`); }, random: () => 0, now: () => NOW,
    });
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(429, { errors: [] }, { headers: { 'retry-after': '7' } });
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, () => { log.push('actions'); return { data: [] }; });
    pool().intercept({ path: '/api/world_operators', method: 'GET' }).reply(200, () => { log.push('operators'); return { data: [] }; });
    await Promise.all([c.listActions(), c.listOperators()]);
    // The operators request was waiting for the one slot when the 429 came: it must not be sent
    // before a 7 s wait, although it checked for a pause before it queued.
    // Two waits before it is sent: the retry's own backoff of the refused request, and its own.
    expect(log.slice(0, log.indexOf('operators'))).toEqual(['sleep 7000', 'sleep 7000']);
    await c.close();
  });

  it('429s stop once the time budget would be passed', async () => {
    const budgetS = DEFAULT_RETRY_POLICY.budgetMs / 1000;
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(429, { errors: [] }, { headers: { 'retry-after': '20' } }).times(budgetS);
    const err = await client.listActions().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, retryable: true, outcome: 'failed' });
    // Each wait is 20 s (random() is 0: no jitter): as many as fit in the budget.
    expect(retries).toHaveLength(Math.floor(budgetS / 20));
  });
});

describe('servers without GET /api/apps', () => {
  it.each([404, 405])('listApps is null on %i', async (status) => {
    pool().intercept({ path: '/api/apps', method: 'GET' }).reply(status, { errors: [{ code: 'x', detail: 'no' }] });
    expect(await client.listApps()).toBeNull();
  });
});

describe('network errors', () => {
  it('a reset on GET is retried; the same on POST is outcome unknown', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    pool().intercept({ path: '/api/actions', method: 'GET' }).replyWithError(reset);
    pool().intercept({ path: '/api/actions', method: 'GET' }).reply(200, { data: [action()] });
    expect(await client.listActions()).toHaveLength(1);
    expect(retries[0]?.reason).toBe('ECONNRESET');
    pool().intercept({ path: '/api/actions', method: 'POST' }).replyWithError(reset);
    const err = await client.createAction(spec).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: null, outcome: 'unknown', networkCode: 'ECONNRESET' });
  });
});

describe('503 to a POST', () => {
  it('is "not done", whatever the body: sent again, and the second answer counts', async () => {
    pool().intercept({ path: '/api/actions', method: 'POST' })
      .reply(503, { errors: [{ status: '503', code: 'unavailable', title: 'Service Unavailable', detail: 'later' }] });
    pool().intercept({ path: '/api/actions', method: 'POST' }).reply(201, { data: action() });
    await client.createAction(spec);
    expect(retries).toHaveLength(1);
  });

  it("a proxy's 503 page too; one that never ends is a definite failure, not an unknown outcome", async () => {
    pool().intercept({ path: '/api/actions', method: 'POST' }).reply(503, '<html>Service Unavailable</html>').persist();
    const err = await client.createAction(spec).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, outcome: 'failed' });
    expect(retries.length).toBeGreaterThan(0);
  });
});

describe('headers', () => {
  it('sends the JWT as Authorization, JSON content type on bodies', async () => {
    let seen: Record<string, string> = {};
    pool().intercept({ path: '/api/actions', method: 'POST' }).reply(201, (opts) => {
      seen = opts.headers as Record<string, string>;
      return { data: action() };
    });
    await client.createAction(spec);
    expect(seen.authorization).toBe('header.payload.sig');
    expect(seen['content-type']).toBe('application/json');
  });
});
