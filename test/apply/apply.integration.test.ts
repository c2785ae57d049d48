// applyPlan against the real reference server over loopback, with plans made by the real
// planner. After every apply, plan again and expect no changes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply.js';
import type { ApiClient } from '../../src/api/types.js';
import { actionAddress, parserAddress } from '../../src/model/address.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { action, census, clientFor, parser, planFor, state } from './world.js';

let server: TestServer;
let client: ApiClient;
let org = 1;

// Each test works in an organization of its own: a clean slate without restarting the server.
beforeEach(async () => {
  org++;
  client = clientFor(server, { token: await server.mintToken(org) });
});

describe.each(SERVER_MODES)('$name', (mode) => {
  beforeAll(async () => {
    server = await startTestServer(mode.options);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('applyPlan against the reference server', () => {
    it('applies from empty, then a second plan is empty and a second apply does nothing', async () => {
      const desired = state([action('Check balance', [parser('balance'), parser('wrong-pin', { status: 'failed' })]), action('Buy bundle')]);
      const plan = await planFor(client, desired);
      expect(plan.summary).toEqual({ create: 4, update: 0, archive: 0, restore: 0 });
      const r = await applyPlan(plan, client, { concurrency: 4 });
      expect(r.summary).toEqual({ applied: 4, failed: 0, skipped: 0 });
      const again = await planFor(client, desired);
      expect(again.changes).toEqual([]);
      const noop = await applyPlan(again, client, { concurrency: 4 });
      expect(noop.outcomes).toEqual([]);
      const c = await census(client);
      expect([...c.actions.values()]).toEqual([1, 1]);
      expect(c.activeParsers).toBe(2);
    });

    it('renames with renamed_from as a patch of the same live action', async () => {
      await applyPlan(await planFor(client, state([action('Old name', [parser('ok')])])), client, { concurrency: 4 });
      const [before] = await client.listActions();
      const desired = state([action('New name', [parser('ok')], { renamed_from: 'Old name' })]);
      const plan = await planFor(client, desired);
      expect(plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual([`update ${actionAddress('New name')}`]);
      const r = await applyPlan(plan, client, { concurrency: 4 });
      expect(r.summary.failed).toBe(0);
      const live = await client.listActions();
      expect(live.map((a) => [a.id, a.name])).toEqual([[before!.id, 'New name']]);
      expect((await planFor(client, desired)).changes).toEqual([]);
    });

    it('restores an archived action and patches what differs, then its parsers follow', async () => {
      await applyPlan(await planFor(client, state([action('Check', [parser('ok')])])), client, { concurrency: 4 });
      const [live] = await client.listActions();
      await client.archiveAction(live!.id);
      const desired = state([action('Check', [parser('ok'), parser('new')], { root_code: '*155#' })]);
      const plan = await planFor(client, desired);
      expect(plan.changes.map((c) => `${c.op} ${c.address}`)).toContain(`restore ${actionAddress('Check')}`);
      const r = await applyPlan(plan, client, { concurrency: 4 });
      expect(r.summary.failed).toBe(0);
      const after = await client.getAction(live!.id);
      expect(after).toMatchObject({ archived_at: null, root_code: '*155#' });
      expect((await client.listActions()).length).toBe(1);
      expect((await planFor(client, desired)).changes).toEqual([]);
    });

    it('archives a parser removed from the config, and prunes unmanaged actions only with prune', async () => {
      await applyPlan(await planFor(client, state([action('Keep', [parser('a'), parser('b')]), action('Gone')])), client, { concurrency: 4 });
      const desired = state([action('Keep', [parser('a')])]);
      const plan = await planFor(client, desired);
      expect(plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual([`archive ${parserAddress('Keep', 'b')}`]);
      await applyPlan(plan, client, { concurrency: 4 });
      const pruned = await planFor(client, desired, { prune: true });
      expect(pruned.changes.map((c) => `${c.op} ${c.address}`)).toEqual([`archive ${actionAddress('Gone')}`]);
      await applyPlan(pruned, client, { concurrency: 4 });
      const c = await census(client);
      expect([...c.actions.keys()]).toEqual(['Keep']);
      expect([...c.parsers.keys()]).toEqual(['Keep/a']);
      expect((await planFor(client, desired, { prune: true })).changes).toEqual([]);
    });

    it('skips the parsers of an action the server refuses to create, and applies the rest', async () => {
      const plan = await planFor(client, state([action('Bad', [parser('p1'), parser('p2')]), action('Good', [parser('p3')])]));
      // A root_code over the server's documented bound: the 422 comes from the server, not from menuctl.
      const change = plan.changes.find((c) => c.address === actionAddress('Bad'))!;
      if (change.op === 'create' && change.type === 'action') change.desired.root_code = 'x'.repeat(5000);
      const r = await applyPlan(plan, client, { concurrency: 4 });
      const by = Object.fromEntries(r.outcomes.map((o) => [o.address, o]));
      expect(by[actionAddress('Bad')]).toMatchObject({ status: 'failed', error: { status: 422 } });
      expect(by[parserAddress('Bad', 'p1')]).toMatchObject({ status: 'skipped', reason: { code: 'blocked', by: actionAddress('Bad'), blocker: { status: 'failed', op: 'create' } } });
      expect(by[parserAddress('Bad', 'p2')]!.status).toBe('skipped');
      expect(by[parserAddress('Good', 'p3')]!.status).toBe('applied');
      const c = await census(client);
      expect([...c.actions.keys()]).toEqual(['Good']);
    });

    it('stops starting changes when the signal aborts; a second apply finishes without duplicates', async () => {
      const desired = state(Array.from({ length: 12 }, (_, i) => action(`I${i}`, [parser('x'), parser('y')])));
      const controller = new AbortController();
      let done = 0;
      const first = await applyPlan(await planFor(client, desired), client, {
        concurrency: 2,
        signal: controller.signal,
        onDone: () => { if (++done === 5) controller.abort(); },
      });
      expect(first.interrupted).toBe(true);
      expect(first.summary.skipped).toBeGreaterThan(0);
      expect(first.outcomes.filter((o) => o.status === 'skipped').every((o) => o.reason?.code === 'interrupted')).toBe(true);
      const second = await applyPlan(await planFor(client, desired), client, { concurrency: 4 });
      expect(second.summary.failed).toBe(0);
      const c = await census(client);
      expect(c.actions.size).toBe(12);
      expect([...c.actions.values()].every((n) => n === 1)).toBe(true);
      expect(c.activeParsers).toBe(24);
      expect((await planFor(client, desired)).changes).toEqual([]);
    });
  });
});
