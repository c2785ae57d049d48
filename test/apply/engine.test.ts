// Unit tests of the engine's rules on an in-memory client (fake-client.ts). The same rules
// are exercised against the real reference server in the integration tests.
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan, ApplyRefused } from '../../src/apply/apply.js';
import { actionAddress, parserAddress } from '../../src/model/address.js';
import { outcomeReasonText } from '../../src/report/outcome-reason.js';
import { FakeClient } from './fake-client.js';
import { archive, createAction, createApp, createParser, plan } from './plan-data.js';

const fast = { maxSends: 3, baseDelayMs: 1 };

describe('applyPlan ordering and dependents', () => {
  it('creates actions before their parsers and gives parsers the id created in this run', async () => {
    const client = new FakeClient();
    const r = await applyPlan(plan([createParser('A', 'ok'), createAction('A')]), client, { concurrency: 4, recovery: fast });
    expect(r.summary).toEqual({ applied: 2, failed: 0, skipped: 0 });
    expect(client.calls.map((c) => c.split(' ')[0])).toEqual(['createAction', 'createParser']);
    expect(client.parsers[0]!.action_id).toBe(client.actions[0]!.id);
    // outcomes are reported in plan order
    expect(r.outcomes.map((o) => o.address)).toEqual([parserAddress('A', 'ok'), actionAddress('A')]);
  });

  it('skips the parsers of an action that failed to be created, and carries on with the rest', async () => {
    const client = new FakeClient();
    client.hook = (call, arg) => (call === 'createAction' && arg === 'Bad' ? Object.assign(new Error('422 validation: root_code'), { status: 422, code: 'validation' }) : undefined);
    const r = await applyPlan(
      plan([createAction('Bad'), createAction('Good'), createParser('Bad', 'p1'), createParser('Good', 'p2')]),
      client, { concurrency: 2, recovery: fast },
    );
    const by = Object.fromEntries(r.outcomes.map((o) => [o.address, o]));
    expect(by[actionAddress('Bad')]).toMatchObject({ status: 'failed', error: { status: 422, code: 'validation' } });
    expect(by[parserAddress('Bad', 'p1')]).toMatchObject({ status: 'skipped', reason: { code: 'blocked', by: 'action["Bad"]', blocker: { status: 'failed', op: 'create' } } });
    expect(by[parserAddress('Good', 'p2')]!.status).toBe('applied');
    expect(client.parsers.map((p) => p.category)).toEqual(['p2']);
  });

  it('archives parsers before their action', async () => {
    const client = new FakeClient();
    client.actions.push({ id: 'x1', name: 'X', root_code: '1', transport_type: 'ussd', operators: [], steps: [], description: null, organization_id: 1, archived_at: null, updated_at: 't' });
    client.parsers.push({ ...(await import('./plan-data.js')).parserDesired('p'), id: '7', action_id: 'x1', archived_at: null, updated_at: 't' });
    const r = await applyPlan(
      plan([archive('action', actionAddress('X'), 'x1'), archive('parser', parserAddress('X', 'p'), '7', actionAddress('X'))]),
      client, { concurrency: 4, recovery: fast },
    );
    expect(r.summary).toEqual({ applied: 2, failed: 0, skipped: 0 });
    expect(client.calls.map((c) => c.split(' ')[0])).toEqual(['archiveParser', 'archiveAction']);
  });

  it('keeps the action when a parser archive failed', async () => {
    const client = new FakeClient();
    client.actions.push({ id: 'x1', name: 'X', root_code: '1', transport_type: 'ussd', operators: [], steps: [], description: null, organization_id: 1, archived_at: null, updated_at: 't' });
    client.parsers.push({ ...(await import('./plan-data.js')).parserDesired('p'), id: '7', action_id: 'x1', archived_at: null, updated_at: 't' });
    client.hook = (call) => (call === 'archiveParser' ? Object.assign(new Error('500'), { status: 500 }) : undefined);
    const r = await applyPlan(
      plan([archive('action', actionAddress('X'), 'x1'), archive('parser', parserAddress('X', 'p'), '7', actionAddress('X'))]),
      client, { concurrency: 4, recovery: fast },
    );
    expect(r.outcomes[0]).toMatchObject({ status: 'skipped', reason: { code: 'blocked', by: 'action["X"].parser["p"]', blocker: { status: 'failed', op: 'archive' } } });
    expect(client.actions[0]!.archived_at).toBeNull();
  });
});

describe('the guard (the state lock still held)', () => {
  it('is asked before every write; once it refuses, nothing more is sent and the rest is skipped with why', async () => {
    const client = new FakeClient();
    let asked = 0;
    const guard = async () => {
      if (++asked > 2) throw new Error('this run no longer holds the state lock');
    };
    const changes = ['A', 'B', 'C', 'D', 'E'].map((n) => createAction(n));
    const r = await applyPlan(plan(changes), client, { concurrency: 1, recovery: fast, guard });
    expect(client.calls.filter((c) => c.startsWith('createAction'))).toHaveLength(2);
    expect(r.summary).toEqual({ applied: 2, failed: 0, skipped: 3 });
    expect(r.stopped).toBe('this run no longer holds the state lock');
    const skipped = r.outcomes.filter((o) => o.status === 'skipped');
    expect(skipped.map((o) => outcomeReasonText(o.reason!))).toEqual(Array(3).fill('not sent: the run stopped (this run no longer holds the state lock)'));
    // Asked once per change until it refused; never again after.
    expect(asked).toBe(3);
  });
});

describe('restore', () => {
  const archivedAction = () => ({ id: 'x1', name: 'X', root_code: '1', transport_type: 'ussd' as const, operators: [], steps: [], description: null, organization_id: 1, archived_at: 'then', updated_at: 't' });
  const restoreX = (extra: object) => ({
    op: 'restore' as const, type: 'action' as const, id: 'x1', address: actionAddress('X'), fingerprint: null, fields: [],
    desired: { name: 'X', root_code: '1', transport_type: 'ussd' as const, operator_ids: [], steps: [] }, ...extra,
  });

  it('only restores when no field differs', async () => {
    const client = new FakeClient();
    client.actions.push(archivedAction());
    await applyPlan(plan([restoreX({})]), client, { concurrency: 1, recovery: fast });
    expect(client.calls.map((c) => c.split(' ')[0])).toEqual(['restoreAction']);
  });

  it('re-sends the steps after the restore when the plan was forced by --resend', async () => {
    const client = new FakeClient();
    client.actions.push(archivedAction());
    await applyPlan(plan([restoreX({ forced: true, reasons: [{ code: 'resend' }] })]), client, { concurrency: 1, recovery: fast });
    expect(client.calls.map((c) => c.split(' ')[0])).toEqual(['restoreAction', 'updateAction']);
  });
});

describe('the no-duplicate rule', () => {
  it('finds a create whose answer was lost after the write instead of sending it again', async () => {
    const client = new FakeClient();
    let lose = true;
    client.hook = (call) => {
      if (call === 'createAction' && lose) { lose = false; return 'lose-after-write'; }
    };
    const r = await applyPlan(plan([createAction('A'), createParser('A', 'p')]), client, { concurrency: 2, recovery: fast });
    expect(client.actions).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ status: 'applied', recovered: true, id: client.actions[0]!.id });
    expect(client.parsers[0]!.action_id).toBe(client.actions[0]!.id);
  });

  it('sends the create again when the lookup shows it never happened', async () => {
    const client = new FakeClient();
    client.actions.push({ id: 'a1', name: 'A', root_code: '1', transport_type: 'ussd', operators: [], steps: [], description: null, organization_id: 1, archived_at: null, updated_at: 't' });
    let n = 0;
    client.hook = (call) => (call === 'createParser' && n++ === 0 ? 'lose-before-write' : undefined);
    const r = await applyPlan(plan([createParser('A', 'p', 'a1')]), client, { concurrency: 1, recovery: fast });
    expect(r.outcomes[0]).toMatchObject({ status: 'applied', id: client.parsers[0]!.id });
    expect(r.outcomes[0]!.recovered).toBeUndefined();
    expect(client.parsers).toHaveLength(1);
    expect(client.calls.map((c) => c.split(' ')[0])).toEqual(['createParser', 'listParsers', 'createParser']);
  });

  it('gives up after maxSends lost answers and says the resource was not created', async () => {
    const client = new FakeClient();
    client.hook = (call) => (call === 'createAction' ? 'lose-before-write' : undefined);
    const r = await applyPlan(plan([createAction('A')]), client, { concurrency: 1, recovery: fast });
    expect(r.outcomes[0]!.status).toBe('failed');
    expect(r.outcomes[0]!.error!.message).toMatch(/was not created: 3 attempts/);
    expect(client.calls.filter((c) => c.startsWith('createAction'))).toHaveLength(3);
  });
});

describe('safety checks before the first write', () => {
  const archives = (n: number) => Array.from({ length: n }, (_, i) => archive('action', actionAddress(`A${i}`), `id${i}`));

  it('refuses more than 10 archives that are over 25% of the managed resources without force', async () => {
    const client = new FakeClient();
    const p = plan(archives(11));
    await expect(applyPlan(p, client, { concurrency: 2, thresholds: { managedCount: 40 } })).rejects.toThrow(/refusing to archive 11 of 40 .*--force/);
    expect(client.calls).toEqual([]);
  });

  it('allows them when under the percentage, with configurable limits, or with force', async () => {
    const client = new FakeClient();
    client.hook = () => undefined;
    const p = plan(archives(11));
    const attempted = () => client.calls.filter((c) => c.startsWith('archiveAction')).length;
    // 11 of 50 is 22%: under 25%, so allowed (the archives fail here: the fake has no such actions)
    const under = await applyPlan(p, client, { concurrency: 2, thresholds: { managedCount: 50 } });
    expect(under.outcomes).toHaveLength(11);
    expect(attempted()).toBe(11);
    await expect(applyPlan(plan(archives(3)), client, { concurrency: 2, thresholds: { maxArchive: 2, maxArchivePercent: 5, managedCount: 50 } })).rejects.toBeInstanceOf(ApplyRefused);
    expect(attempted()).toBe(11);
    const forced = await applyPlan(p, client, { concurrency: 2, force: true, thresholds: { managedCount: 11 } });
    expect(forced.outcomes).toHaveLength(11);
    expect(attempted()).toBe(22);
  });

  it('creates apps without a secrets file (their secrets stay with the API, read by the recorded id), or discards them knowingly', async () => {
    const client = new FakeClient();
    const kept = await applyPlan(plan([createAction('A'), createApp('com.x')]), client, { concurrency: 2 });
    expect(kept.outcomes.find((o) => o.type === 'app')).toMatchObject({ status: 'applied', reason: { code: 'secrets-with-api' } });
    expect(JSON.stringify(kept)).not.toContain('SECRET');
    const r = await applyPlan(plan([createApp('com.y')]), client, { concurrency: 2, discardSecrets: true });
    expect(r.outcomes[0]).toMatchObject({ status: 'applied', reason: { code: 'secrets-discarded' } });
    expect(JSON.stringify(r)).not.toContain('SECRET');
  });
});

describe('secrets file', () => {
  it('writes token and webhook secret keyed by address, mode 0600, merged with what is there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'menuctl-secrets-'));
    const file = join(dir, 'secrets.json');
    await writeFile(file, JSON.stringify({ 'app["com.old"]': { id: '1', token: 'old', webhook_secret: null } }));
    const client = new FakeClient();
    const r = await applyPlan(plan([createApp('com.a'), createApp('com.b')]), client, { concurrency: 2, secretsFile: file });
    const doc = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(doc).sort()).toEqual(['app["com.a"]', 'app["com.b"]', 'app["com.old"]']);
    const a = client.apps.find((x) => x.package_name === 'com.a')!;
    expect(doc['app["com.a"]']).toEqual({ id: a.id, token: `tok-${a.id}-SECRET`, webhook_secret: `whs-${a.id}-SECRET` });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(r.secrets).toEqual({ file, addresses: expect.arrayContaining(['app["com.a"]', 'app["com.b"]']) });
    expect(JSON.stringify(r)).not.toContain('SECRET');
  });

  it('refuses before any write when the secrets file is not JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'menuctl-secrets-'));
    const file = join(dir, 'secrets.json');
    await writeFile(file, 'not json');
    const client = new FakeClient();
    await expect(applyPlan(plan([createApp('com.a')]), client, { concurrency: 1, secretsFile: file })).rejects.toThrow(/not valid JSON/);
    expect(client.calls).toEqual([]);
  });
});

describe('an app create whose answer was lost', () => {
  const loseFirstCreate = (client: FakeClient, also: (call: string) => Error | void = () => undefined) => {
    let lose = true;
    client.hook = (call) => {
      if (call === 'createApp' && lose) { lose = false; return 'lose-after-write'; }
      return also(call);
    };
  };

  it('reads the secrets back and writes them to the secrets file like a normal create', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'menuctl-secrets-')), 'secrets.json');
    const client = new FakeClient();
    loseFirstCreate(client);
    const r = await applyPlan(plan([createApp('com.a')]), client, { concurrency: 1, secretsFile: file, recovery: fast });
    const a = client.apps[0]!;
    expect(client.apps).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ status: 'applied', recovered: true, id: a.id, reason: { code: 'secrets-written', file } });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      'app["com.a"]': { id: a.id, token: `tok-${a.id}-SECRET`, webhook_secret: `whs-${a.id}-SECRET` },
    });
    expect(r.secrets).toEqual({ file, addresses: ['app["com.a"]'] });
    expect(JSON.stringify(r)).not.toContain('SECRET');
  });

  it('says the token was not captured only when reading the secrets back fails', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'menuctl-secrets-')), 'secrets.json');
    const client = new FakeClient();
    loseFirstCreate(client, (call) => (call === 'getAppWithSecrets' ? Object.assign(new Error('GET /api/apps/100: 500 internal_error'), { status: 500 }) : undefined));
    const r = await applyPlan(plan([createApp('com.a')]), client, { concurrency: 1, secretsFile: file, recovery: fast });
    expect(r.outcomes[0]).toMatchObject({ status: 'applied', recovered: true });
    expect(r.outcomes[0]!.reason).toMatchObject({ code: 'secrets-lost', cause: expect.stringMatching(/GET \/api\/apps\/100: 500 internal_error/) });
    expect(outcomeReasonText(r.outcomes[0]!.reason!)).toMatch(/^token not captured: .*GET \/api\/apps\/100: 500 internal_error/);
    expect(r.secrets).toBeUndefined();
    // Nothing was saved, so the file was never created.
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('interrupts', () => {
  it('lets in-flight changes finish, skips the rest as interrupted', async () => {
    const client = new FakeClient();
    const controller = new AbortController();
    let started = 0;
    const changes = Array.from({ length: 6 }, (_, i) => createAction(`A${i}`));
    const r = await applyPlan(plan([...changes, createParser('A0', 'p')]), client, {
      concurrency: 2,
      signal: controller.signal,
      onStart: () => { if (++started === 2) controller.abort(); },
    });
    expect(r.interrupted).toBe(true);
    expect(r.summary).toEqual({ applied: 2, failed: 0, skipped: 5 });
    expect(client.actions).toHaveLength(2);
    expect(r.outcomes.filter((o) => o.status === 'skipped').every((o) => o.reason?.code === 'interrupted')).toBe(true);
  });
});

describe('two changes that share an address', () => {
  // A pinned action["X"] (x1) and an unmanaged live action also named "X" (x2) archived by --prune.
  const liveAction = (id: string) => ({ id, name: 'X', root_code: '1', transport_type: 'ussd' as const, operators: [], steps: [], description: null, organization_id: 1, archived_at: null, updated_at: 't' });
  const updateX1 = {
    op: 'update' as const, type: 'action' as const, id: 'x1', address: actionAddress('X'), fingerprint: 'f', fields: [],
    desired: { name: 'X', root_code: '2', transport_type: 'ussd' as const, operator_ids: [], steps: [] },
  };

  it('archives the pruned namesake although a parser archive of the pinned one failed', async () => {
    const client = new FakeClient();
    client.actions.push(liveAction('x1'), liveAction('x2'));
    client.parsers.push({ ...(await import('./plan-data.js')).parserDesired('p'), id: '7', action_id: 'x1', archived_at: null, updated_at: 't' });
    client.hook = (call) => (call === 'archiveParser' ? Object.assign(new Error('500'), { status: 500 }) : undefined);
    const r = await applyPlan(
      plan([updateX1, archive('parser', parserAddress('X', 'p'), '7', actionAddress('X')), archive('action', actionAddress('X'), 'x2')]),
      client, { concurrency: 2, recovery: fast },
    );
    expect(r.outcomes.map((o) => [o.id, o.status])).toEqual([['x1', 'applied'], ['7', 'failed'], ['x2', 'applied']]);
    expect(client.actions.find((a) => a.id === 'x2')!.archived_at).not.toBeNull();
  });

  it('skips a parser of the pinned action when its restore failed, whatever its namesake did', async () => {
    const client = new FakeClient();
    client.actions.push({ ...liveAction('x1'), archived_at: 'then' }, liveAction('x2'));
    client.hook = (call) => (call === 'restoreAction' ? Object.assign(new Error('500'), { status: 500 }) : undefined);
    const r = await applyPlan(
      plan([{ ...updateX1, op: 'restore' as const, fields: [] }, createParser('X', 'q', 'x1'), archive('action', actionAddress('X'), 'x2')]),
      client, { concurrency: 2, recovery: fast },
    );
    expect(r.outcomes.map((o) => o.status)).toEqual(['failed', 'skipped', 'applied']);
    expect(r.outcomes[1]!.reason).toEqual({ code: 'blocked', by: 'action["X"]', blocker: { status: 'failed', op: 'restore' } });
    expect(outcomeReasonText(r.outcomes[1]!.reason!)).toBe('action["X"] failed to restore');
    expect(client.parsers).toHaveLength(0);
  });
});

describe('an interrupt during the recovery of a lost create', () => {
  it('stops waiting, sends nothing more and looks nothing up', async () => {
    const client = new FakeClient();
    const controller = new AbortController();
    client.hook = (call) => {
      if (call !== 'createAction') return undefined;
      // The answer is lost; SIGINT arrives while apply waits before its lookup.
      setImmediate(() => controller.abort());
      return 'lose-before-write';
    };
    // A minute's backoff: without the signal the recovery would sleep through it (test timeout).
    const r = await applyPlan(plan([createAction('A')]), client, { concurrency: 1, signal: controller.signal, recovery: { maxSends: 6, baseDelayMs: 60_000 } });
    expect(client.calls.map((c) => c.split(' ')[0])).toEqual(['createAction']);
    expect(r.outcomes[0]).toMatchObject({ status: 'failed' });
    expect(r.outcomes[0]!.error!.message).toMatch(/interrupted while checking .*menuctl plan/);
  });

});
