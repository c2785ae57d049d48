// verifyPlan on the in-memory client: the managed count it hands the thresholds, and what it
// says when it cannot check something. Staleness end to end is in saved-plan.integration.test.ts.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/model/fingerprint.js';
import { actionAddress, parserAddress } from '../../src/model/address.js';
import { verifyPlan } from '../../src/apply/verify.js';
import { FakeClient } from './fake-client.js';
import { archive, createApp, parserDesired, plan } from './plan-data.js';

const liveAction = (id: string, archived: string | null = null) => ({ id, name: `N${id}`, root_code: '1', transport_type: 'ussd' as const, operators: [], steps: [], description: null, organization_id: 1, archived_at: archived, updated_at: 't' });
const liveParser = (id: string, actionId: string, archived: string | null = null) => ({ ...parserDesired(`c${id}`), id, action_id: actionId, archived_at: archived, updated_at: 't' });

describe('verifyPlan checks', () => {
  it('refuses a change on a live resource that carries no fingerprint, naming it', async () => {
    const client = new FakeClient();
    client.actions.push(liveAction('a1'));
    const change = { ...archive('action', actionAddress('Na1'), 'a1'), fingerprint: null };
    const v = await verifyPlan(plan([change]), client);
    expect(v.ok).toBe(false);
    expect(v.stale).toEqual([{ address: actionAddress('Na1'), why: 'carries no fingerprint to check the live resource against' }]);
  });

  it('passes a change whose fingerprint is that of the live resource', async () => {
    const client = new FakeClient();
    client.actions.push(liveAction('a1'));
    client.parsers.push(liveParser('1', 'a1'));
    const change = { ...archive('parser', parserAddress('Na1', 'c1'), '1', actionAddress('Na1')), fingerprint: fingerprint('parser', client.parsers[0]!) };
    expect((await verifyPlan(plan([change]), client)).ok).toBe(true);
  });

  it('stops at another organization before reading any resource', async () => {
    const client = new FakeClient();
    client.actions.push(liveAction('a1'));
    const v = await verifyPlan({ ...plan([archive('action', actionAddress('Na1'), 'a1')]), organization_id: 2 }, client);
    expect(v).toMatchObject({ ok: false, stale: [], problems: ['the plan was made for organization 2, but the credentials act for organization 1'] });
    expect(client.calls).toEqual([]);
  });

  it('refuses a plan that names no organization when the credentials name one', async () => {
    const client = new FakeClient();
    const v = await verifyPlan({ ...plan([createApp('com.a')]), organization_id: null }, client);
    expect(v).toMatchObject({ ok: false, problems: ['the plan names no organization, but the credentials act for organization 1; make the plan with these credentials'] });
    expect(client.calls).toEqual([]);
  });
});

describe('verifyPlan on a server without GET /api/apps', () => {
  it('names the app creates it could not check', async () => {
    const client = new FakeClient();
    // The real client returns null for a server without the route (ApiClient.listApps).
    (client as unknown as { listApps: () => Promise<null> }).listApps = async () => null;
    const v = await verifyPlan(plan([createApp('com.a'), createApp('com.b')]), client);
    expect(v.ok).toBe(true);
    expect(v.warnings).toHaveLength(1);
    expect(v.warnings[0]!.code).toBe('verify.apps-unchecked');
    expect(v.warnings[0]!.message).toMatch(/not checked for staleness: app\["com\.a"\], app\["com\.b"\] .*GET \/api\/apps/);
  });

  it('warns about nothing when the apps could be listed', async () => {
    const v = await verifyPlan(plan([createApp('com.a')]), new FakeClient());
    expect(v.warnings).toEqual([]);
  });
});
