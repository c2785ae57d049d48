// A GET's total wait is bounded (transport.ts readWaitMs, issue 28 item 5): against an API that
// keeps failing, the read gives up at the bound and says how many tries it made and what the
// last one got. (An API that never answers: test/cli/stalled-api.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

describe('a read that keeps failing', () => {
  it('gives up at the bound, naming its tries and the last answer', async () => {
    server = await startTestServer({ failRate: 1, faultSeed: 1 });
    client = createClient({ baseUrl: server.url, token: server.token, readWaitMs: 800, retry: { baseMs: 300, capMs: 300 }, random: () => 1 });
    server.resetStats();
    const err = await client.listActions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const tries = server.stats().byRoute['GET /api/actions']!;
    expect(tries).toBeGreaterThan(1);
    expect((err as ApiError).message).toBe(
      `GET /api/actions: 503 unavailable: injected failure (--fail-rate): retry later; gave up after ${tries} tries ` +
        '(a read waits at most 0.8 s in all; MENUCTL_READ_TIMEOUT sets it)',
    );
    expect(err).toMatchObject({ status: 503, code: 'unavailable', outcome: 'failed', retryable: true });
  });

  it('a write is not bounded by it: a POST whose answer is lost is not retried and fails as before', async () => {
    server = await startTestServer({ resetRate: 1, faultSeed: 1 });
    client = createClient({ baseUrl: server.url, token: server.token, readWaitMs: 1 });
    const err = await client.createAction({ name: 'x', root_code: '*1#', transport_type: 'ussd', operator_ids: [1662], steps: [] }).catch((e: unknown) => e);
    expect((err as ApiError).message).not.toContain('gave up after');
    expect(err).toMatchObject({ status: null, outcome: 'unknown' });
  });
});
