import { afterEach, describe, expect, it } from 'vitest';
import { Faults } from '../../src/server/faults.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { client } from './http.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const app = (i: number) => ({ app: { name: `a${i}`, package_name: `com.example.a${i}` } });

describe('fault injection', () => {
  it('--fail-rate answers 503 before doing anything, deterministically with a seed', async () => {
    const runOnce = async () => {
      const srv = await startTestServer({ failRate: 0.5, faultSeed: 42 });
      const api = client(srv);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await api('POST', '/api/apps', app(i))).status);
      // The 503s wrote nothing: only the 201s are listed (listing may itself fail, so retry).
      let list;
      do list = await api('GET', '/api/apps'); while (list.status === 503);
      await srv.close();
      return { statuses, listed: list.body.meta.count as number };
    };
    const a = await runOnce();
    const b = await runOnce();
    expect(a.statuses).toEqual(b.statuses);
    expect(a.statuses).toContain(503);
    expect(a.statuses).toContain(201);
    expect(a.listed).toBe(a.statuses.filter((x) => x === 201).length);
  });

  it('--reset-rate commits the write, then drops the connection without an answer', async () => {
    s = await startTestServer({ resetRate: 1, faultSeed: 1 });
    const api = client(s);
    await expect(api('POST', '/api/apps', app(1))).rejects.toThrow();
    // Reads are answered (only writes are reset), and the write was committed.
    const list = await api('GET', '/api/apps');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { attributes: { name: string } }) => x.attributes.name)).toEqual(['a1']);
  });

  it('--rate-limit allows N requests per token, then 429 with Retry-After in whole seconds', async () => {
    s = await startTestServer({ rateLimit: 3 });
    const api = client(s);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const r = await api('GET', '/api/actions');
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.headers.get('retry-after');
        expect(r.body.errors[0].code).toBe('rate_limited');
      }
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses).toContain(429);
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    // The limit is per token: another token has its own allowance.
    expect((await client(s, await s.mintToken(1, '1h'))('GET', '/api/actions')).status).toBe(200);
  });

  it('--latency delays responses without changing them', async () => {
    s = await startTestServer({ latencyMs: 30 });
    const r = await client(s)('GET', '/api/actions');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], meta: { count: 0 } });
  });

  it('--capacity N serves N requests at a time: the rest queue, first come first served', async () => {
    // The slots themselves, with a sleep the test ends: which requests wait, in which order.
    const faults = new Faults({ latencyMs: 100, capacity: 2 });
    const sleeping: { id: number; ms: number; wake: () => void }[] = [];
    const answered: number[] = [];
    const request = (id: number) =>
      faults.delay((ms) => new Promise<void>((wake) => sleeping.push({ id, ms, wake }))).then(() => { answered.push(id); });
    const turn = () => new Promise((r) => setImmediate(r));
    const all = [1, 2, 3, 4, 5, 6].map(request);
    await turn();
    expect(sleeping.map((x) => x.id)).toEqual([1, 2]); // two slots taken, four queued
    expect(sleeping.every((x) => x.ms === 100)).toBe(true);
    sleeping[1]!.wake();
    await turn();
    // A freed slot goes to the request that waited longest.
    expect(answered).toEqual([2]);
    expect(sleeping.map((x) => x.id)).toEqual([1, 2, 3]);
    sleeping[0]!.wake();
    sleeping[2]!.wake();
    await turn();
    expect(answered).toEqual([2, 1, 3]);
    expect(sleeping.map((x) => x.id)).toEqual([1, 2, 3, 4, 5]);
    for (const x of sleeping.slice(3)) x.wake();
    await turn();
    expect(sleeping.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6]);
    sleeping[5]!.wake();
    await Promise.all(all);
    expect(answered).toEqual([2, 1, 3, 4, 5, 6]);
  });

  it('--capacity N still answers every request, the queued ones too', async () => {
    s = await startTestServer({ latencyMs: 20, capacity: 2 });
    const get = client(s);
    const six = await Promise.all(Array.from({ length: 6 }, () => get('GET', '/api/actions')));
    expect(six.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
