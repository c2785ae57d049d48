// Convergence under the server's fault flags: 503 before doing anything (fail-rate), the write
// committed then the connection dropped (reset-rate: the ambiguous failure), and 429 with
// Retry-After (rate-limit). Applying 50 actions with 4 parsers each must end with exactly 50
// actions and 200 active parsers: none missing, none duplicated. A first run may report
// failures honestly; a second run must then finish the job.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bulk, census, clientFor, planFor } from './world.js';

let faulty: TestServer;
let clean: TestServer | undefined;
// Our own directory, so the database outlives the faulty server and can be counted without faults.
const dir = mkdtempSync(join(tmpdir(), 'menuctl-faults-'));

beforeAll(async () => {
  faulty = await startTestServer({ data: join(dir, 'api.sqlite'), failRate: 0.2, resetRate: 0.1, rateLimit: 20, faultSeed: 7 });
});
afterAll(async () => {
  await faulty?.close();
  await clean?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('apply under faults', () => {
  it('converges to exactly 50 actions and 200 parsers, none duplicated', async () => {
    const desired = bulk(50, 4);
    const client = clientFor(faulty, { concurrency: 8 });
    const runs = [];
    for (let run = 0; run < 2; run++) {
      const plan = await planFor(client, desired);
      if (plan.changes.length === 0) break;
      const result = await applyPlan(plan, client, { concurrency: 8 });
      runs.push(result);
      // Honest reporting: every change has an outcome, and failures carry the API's error.
      expect(result.outcomes).toHaveLength(plan.changes.length);
      for (const o of result.outcomes.filter((x) => x.status === 'failed')) expect(o.error?.message).toBeTruthy();
      if (result.summary.failed === 0 && result.summary.skipped === 0) break;
    }
    // The faults were real: some creates lost their answer and were found, not sent twice.
    expect(runs[0]!.outcomes.some((o) => o.recovered)).toBe(true);
    // Counted through an API without faults on the same data.
    await faulty.close();
    clean = await startTestServer({ data: faulty.dataFile });
    const c = await census(clientFor(clean));
    expect(c.actions.size).toBe(50);
    expect([...c.actions.values()].every((n) => n === 1)).toBe(true);
    expect(c.parsers.size).toBe(200);
    expect([...c.parsers.values()].every((n) => n === 1)).toBe(true);
    expect(c.activeParsers).toBe(200);
    expect((await planFor(clientFor(clean), desired)).changes).toEqual([]);
  }, 60_000);
});
