// apply's sequence as the engine runs it (engine/apply-run.ts), with no CLI: a plan made from the
// config, the checks before the question, the question as a hook, carrying out with the record
// kept, completion; refusals as typed errors, before anyone is asked. Against the reference
// server over loopback; after an apply, a second plan is empty.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { applyRun, planToApply, savedPlanToApply, type ApplyRunOptions } from '../../src/engine/apply-run.js';
import { EngineRefusal, SavedPlanStale } from '../../src/engine/errors.js';
import type { DesiredState } from '../../src/model/types.js';
import { parseRecord, scopeKey } from '../../src/record/record.js';
import type { LoadedRecord } from '../../src/state/record-file.js';
import { FileBackend } from '../../src/state/file.js';
import { RecordStore } from '../../src/state/store.js';
import { action, census, clientFor, parser, state } from '../apply/world.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: ApiClient;
let org = 1;
let dir: string;
let file: string;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
// Each test in an organization and a record file of its own.
beforeEach(async () => {
  org++;
  client = clientFor(server, { token: await server.mintToken(org) });
  dir = mkdtempSync(join(tmpdir(), 'menuctl-apply-run-'));
  file = join(dir, 'menuctl.lock');
  return () => rmSync(dir, { recursive: true, force: true });
});

async function record(): Promise<LoadedRecord> {
  const store = new RecordStore(new FileBackend(file, 'menuctl.lock'));
  return { store, shown: 'menuctl.lock', doc: await store.load(), key: scopeKey(server.url, org) };
}

const options = (over: Partial<ApplyRunOptions> = {}): ApplyRunOptions => ({
  client, concurrency: 4, signal: new AbortController().signal, environment: null, discardSecrets: false, force: false, ...over,
});

/** A question that answers `yes` and counts how often it was asked. */
function asking(yes = true) {
  const asked: number[] = [];
  return { asked, confirm: async (plan: { changes: unknown[] }) => { asked.push(plan.changes.length); return yes; } };
}

async function planned(desired: DesiredState, over: Partial<Parameters<typeof planToApply>[2]> = {}) {
  const { input, diagnostics } = await planToApply(desired, await record(), { client, concurrency: 4, ...over });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return input;
}

describe('the apply sequence without the CLI', () => {
  it('asks once after the checks, carries the plan out, records what the API confirmed; the next run has nothing to do and asks nothing', async () => {
    const desired = state([action('Check balance', [parser('balance')]), action('Buy bundle')]);
    const q = asking();
    const told: string[] = [];
    let applied: unknown;
    const run = await applyRun(await planned(desired), options(), {
      confirm: q.confirm,
      carrying: () => ({ onDone: (o) => { told.push(`${o.status} ${o.address}`); } }),
      applied: (result) => { applied = result; },
    });
    expect(q.asked).toEqual([3]);
    expect(run.status).toBe('applied');
    if (run.status !== 'applied') return;
    expect(run.result.summary).toEqual({ applied: 3, failed: 0, skipped: 0 });
    expect(applied).toBe(run.result);
    expect(told.sort()).toEqual(['applied action["Buy bundle"]', 'applied action["Check balance"]', 'applied action["Check balance"].parser["balance"]']);
    expect(run.completion).toBeNull();
    const scope = parseRecord(readFileSync(file, 'utf8'), 'menuctl.lock').get(scopeKey(server.url, org))!;
    expect([...scope.actions.keys()].sort()).toEqual(['action["Buy bundle"]', 'action["Check balance"]']);

    const again = asking();
    const second = await applyRun(await planned(desired), options(), { confirm: again.confirm });
    expect(second).toEqual({ status: 'empty', completion: null });
    expect(again.asked).toEqual([]);
  });

  it('declined: nothing is written', async () => {
    const q = asking(false);
    const run = await applyRun(await planned(state([action('Check balance')])), options(), { confirm: q.confirm });
    expect(run).toEqual({ status: 'declined' });
    expect((await census(client)).actions.size).toBe(0);
  });

  it('refuses before the question, as typed errors: archives over the thresholds, a secret bound for the record', async () => {
    await applyRun(await planned(state([action('A'), action('B'), action('C')])), options(), asking());
    const pruning = await planned(state([]), { prune: true, thresholds: { maxArchive: 1, maxArchivePercent: 1 } });
    const q = asking();
    await expect(applyRun(pruning, options(), q)).rejects.toMatchObject({ constructor: EngineRefusal, kind: 'archive-threshold' });
    // Acknowledged, the same plan goes on.
    const forced = await applyRun(pruning, options({ force: true }), q);
    expect(forced.status === 'applied' && forced.result.summary.applied).toBe(3);
    expect(q.asked).toEqual([3]);

    const secret = 'tok-3f9a7c21e5';
    const holding = await planned(state([action('D', [], { steps: [{ kind: 'press', value: '1', expect: `Enter ${secret}` }] })]));
    const secrets = { empty: false, namesIn: (text: string) => (text.includes(secret) ? ['MENUCTL_VAR_TOKEN'] : []) };
    const asked = asking();
    const refused = await applyRun(holding, options({ secrets }), asked).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineRefusal);
    expect(refused).toMatchObject({ kind: 'record-secret', message: expect.stringContaining('action["D"]\'s steps hold the value of MENUCTL_VAR_TOKEN') });
    expect(asked.asked).toEqual([]);
    expect((await census(client)).actions.has('D')).toBe(false);
  });

  it('a saved plan made from another config is refused as stale, with its reasons as data', async () => {
    const plan = (await planned(state([action('Check balance')]))).plan;
    const err = await savedPlanToApply(plan, state([action('Other')]), { record: await record(), client, concurrency: 4, recreate: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SavedPlanStale);
    expect((err as SavedPlanStale).reason).toBe('stale');
    // Without the config, checked against the live API only: carried out as saved.
    const input = await savedPlanToApply(plan, null, { record: await record(), client, concurrency: 4, recreate: [] });
    const run = await applyRun(input, options(), asking());
    expect(run.status === 'applied' && run.result.summary.applied).toBe(1);
  });
});
