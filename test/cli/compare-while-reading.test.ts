// The plan pipeline compares each action while the others are read (engine/read-live.ts
// readLiveComparing): against both servers (test/helpers/modes.ts) with latency, over real HTTP,
// actions are compared before the read ends, and the comparison is the one compareStates makes.
// How much of it is done early depends on the machine's timing: that is a benchmark's figure,
// not a test's; the test holds the last answer back so that a quiet spell surely comes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { readLiveComparing } from '../../src/engine/read-live.js';
import { compareStates } from '../../src/plan/compare.js';
import { desired, desiredAction, desiredParser } from '../plan/builders.js';

const ACTIONS = 12;

/**
 * The client, but the last parser list asked for is answered only after every other answer has
 * come and a quiet spell (IdleQueue's 3 ms) has passed after it: its timer is armed when that
 * answer is queued, this one later and longer, and timers fire in the order they expire.
 */
function holdingLastAnswer(client: ApiClient, total: number): ApiClient {
  let asked = 0;
  let answered = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => { release = r; });
  return new Proxy(client, {
    get(target, key) {
      if (key !== 'listParsers') {
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (actionId: string) => {
        const last = ++asked === total;
        const parsers = await target.listParsers(actionId);
        if (last) await released;
        // After this turn's microtasks (the answer queued for comparison), then past its quiet spell.
        else if (++answered === total - 1) setImmediate(() => setTimeout(release, 20));
        return parsers;
      };
    },
  });
}
describe.each(SERVER_MODES)('against the $name', (mode) => {
  let server: TestServer;
  let client: ApiClient;

  beforeAll(async () => {
    server = await startTestServer({ ...mode.options, latencyMs: 20 });
    client = createClient({ baseUrl: server.url, token: server.token, concurrency: 4 });
    await Promise.all(Array.from({ length: ACTIONS }, async (_, i) => {
      const a = await client.createAction({ name: `A${i}`, root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
      for (const category of ['ok', 'ko']) {
        await client.createParser(a.id, { category, status: 'succeeded', target_type: 'ussd', sender: null, regex: `${category}${i}`, user_message: '' });
      }
    }));
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  describe('comparing while reading', () => {
    it('compares actions in the quiet between answers, with the result compareStates gives', async () => {
      const config = desired({
        actions: Array.from({ length: ACTIONS }, (_, i) => desiredAction({
          name: `A${i}`, root_code: '*1#', steps: [],
          parsers: [desiredParser({ category: 'ok', regex: `ok${i}` }), desiredParser({ category: 'ko', regex: i % 2 ? 'changed' : `ko${i}` })],
        })),
      });
      const { live, comparer, comparedWhileReading } = await readLiveComparing(config, { client: holdingLastAnswer(client, ACTIONS), concurrency: 2 });
      expect(live.parsers).toHaveLength(2 * ACTIONS);
      // Some compared in the quiet before the last answer; that one's action only after it.
      expect(comparedWhileReading).toBeGreaterThan(0);
      expect(comparedWhileReading).toBeLessThan(ACTIONS);
      // The one left when the read ended is compared by finish(), not drained into an early part.
      expect(comparer!.comparedEarly).toBe(comparedWhileReading);
      const cmp = comparer!.finish(live);
      expect(cmp).toEqual(compareStates(config, live));
      expect(cmp.pairs.filter((p) => p.fields.length > 0).map((p) => p.address).sort()).toEqual(
        Array.from({ length: ACTIONS }, (_, i) => i).filter((i) => i % 2).map((i) => `action["A${i}"].parser["ko"]`).sort(),
      );
    });

    it('a pinned parser id owned by an action the config does not manage is named with its owner, read by id', async () => {
      const other = await client.createAction({ name: 'Unmanaged', root_code: '*9#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
      const theirs = await client.createParser(other.id, { category: 'theirs', status: 'succeeded', target_type: 'ussd', sender: null, regex: 'x', user_message: '' });
      const config = desired({
        actions: [
          desiredAction({ name: 'A0', root_code: '*1#', steps: [], parsers: [desiredParser({ category: 'ok', regex: 'ok0', id: theirs.id })] }),
          desiredAction({ name: 'A1', root_code: '*1#', steps: [], parsers: [desiredParser({ category: 'ok', regex: 'ok1', id: 'no-such-parser' })] }),
        ],
      });
      server.resetStats();
      const { live, comparer } = await readLiveComparing(config, { client, concurrency: 2 });
      // One GET by id per pin not found among the parsers read; the 2 actions' lists as usual.
      expect(server.stats().byRoute['GET /api/parsers/:id']).toBe(2);
      expect(server.stats().byRoute['GET /api/actions/:id/parsers']).toBe(2);
      expect(live.pinned_elsewhere?.map((p) => p.id)).toEqual([theirs.id]);
      const cmp = comparer ? comparer.finish(live) : compareStates(config, live);
      expect(cmp.diagnostics.map((d) => d.code)).toEqual(['plan.pinned-id-elsewhere', 'plan.pinned-id-not-found']);
      expect(cmp.diagnostics[0]!.message).toContain(`belongs to the action with id ${JSON.stringify(other.id)}`);
      expect(cmp).toEqual(compareStates(config, live));
    });
  
    it('a config pinned for another organization costs at most 20 reads by id, not one per parser', async () => {
      const config = desired({
        actions: Array.from({ length: 15 }, (_, i) => desiredAction({
          name: `Elsewhere ${i}`, root_code: '*1#', steps: [],
          parsers: [desiredParser({ category: 'a', id: `gone-a${i}` }), desiredParser({ category: 'b', id: `gone-b${i}` })],
        })),
      });
      server.resetStats();
      const { live } = await readLiveComparing(config, { client, concurrency: 4 });
      expect(server.stats().byRoute['GET /api/parsers/:id']).toBe(20);
      expect(live.pinned_elsewhere).toBeUndefined();
    });
  });
});
