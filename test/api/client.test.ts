// The client against the real reference server over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import type { ResolvedAction } from '../../src/plan/types.js';
import type { ResolvedParser } from '../../src/model/types.js';

let server: TestServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  client = createClient({ baseUrl: server.url, token: server.token, concurrency: 4 });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const action: ResolvedAction = {
  name: 'Check balance', root_code: '*144#', transport_type: 'ussd', operator_ids: [2172, 2173],
  steps: [
    { kind: 'press', value: '1', expect: 'My account' }, { kind: 'variable', name: 'phone' },
    { kind: 'select', name: 'bundle' }, { kind: 'pin' }, { kind: 'ok' },
  ],
};
const parser: ResolvedParser = {
  category: 'balance', status: 'succeeded', target_type: 'ussd', sender: null,
  regex: 'Your balance is (?<balance>[\\d,.]+).*', user_message: 'Balance is {balance}',
};

describe('actions', () => {
  it('create, get, list, update, archive, restore', async () => {
    const created = await client.createAction(action);
    expect(created).toMatchObject({
      name: 'Check balance', root_code: '*144#', transport_type: 'ussd', steps: ['1', 'phone', 'bundle', 'pin', '-'],
      organization_id: server.org, archived_at: null,
    });
    expect(created.id).toMatch(/^[0-9a-f]{8}$/);
    expect([...created.operators].sort()).toEqual(['Airtel/Zain/Celtel Ltd.', 'Safaricom Ltd.']);

    expect(await client.getAction(created.id)).toEqual(created);
    expect((await client.listActions()).map((a) => a.id)).toContain(created.id);

    await client.updateAction(created.id, { ...action, root_code: '*145#', steps: [{ kind: 'pin' }] });
    expect(await client.getAction(created.id)).toMatchObject({ root_code: '*145#', steps: ['pin'] });

    await client.archiveAction(created.id);
    expect((await client.getAction(created.id))?.archived_at).not.toBeNull();
    expect((await client.restoreAction(created.id)).archived_at).toBeNull();
  });

  it('returns null for an unknown action and another organization\'s', async () => {
    expect(await client.getAction('00000000')).toBeNull();
    const mine = await client.createAction({ ...action, name: 'Mine only' });
    const other = createClient({ baseUrl: server.url, token: await server.mintToken(2) });
    try {
      expect(await other.getAction(mine.id)).toBeNull();
      expect(await other.organizationId()).toBe(2);
    } finally {
      await other.close();
    }
  });
});

describe('parsers', () => {
  it('create (ussd and sms), list per action, update, archive, restore', async () => {
    const owner = await client.createAction({ ...action, name: 'With parsers' });
    const p = await client.createParser(owner.id, parser);
    expect(p).toMatchObject({ ...parser, action_id: owner.id, archived_at: null });
    const sms = await client.createParser(owner.id, { ...parser, category: 'sms', target_type: 'sms', sender: 'MPESA' });
    expect(sms).toMatchObject({ target_type: 'sms', sender: 'MPESA' });

    expect((await client.listParsers(owner.id)).map((x) => x.category).sort()).toEqual(['balance', 'sms']);
    expect(await client.getParser(p.id)).toEqual(p);

    const patched = await client.updateParser(sms.id, { target_type: 'ussd', sender: null, regex: 'x' });
    expect(patched).toMatchObject({ target_type: 'ussd', sender: null, regex: 'x', category: 'sms' });

    await client.archiveParser(p.id);
    expect((await client.getParser(p.id))?.archived_at).not.toBeNull();
    expect((await client.restoreParser(p.id)).archived_at).toBeNull();
    expect(await client.getParser('999999')).toBeNull();
  });

  it('turns a 422 into an ApiError with the server\'s code, detail and pointer', async () => {
    const owner = await client.createAction({ ...action, name: 'Bad parser' });
    const p = await client.createParser(owner.id, parser);
    const err = await client.updateParser(p.id, { target_type: 'sms', sender: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect(api).toMatchObject({ method: 'PATCH', path: `/api/parsers/${p.id}`, status: 422, outcome: 'failed', retryable: false });
    expect(api.code).toBe('required');
    expect(api.detail).toMatch(/^sender is required when target_type is sms/);
    expect(api.pointer).toMatch(/^\/parser\/sender/);
    expect(api.message).toMatch(new RegExp(`^PATCH /api/parsers/${p.id}: 422 \\w+: sender: `));
    expect(api.message).not.toContain(server.token);
  });
});

describe('apps', () => {
  it('returns secrets only from create, and never in the live app', async () => {
    const { app, secrets } = await client.createApp({ name: 'Agent', package_name: 'com.example.agent', webhook_url: 'https://hooks.example/x' });
    expect(secrets.token).toMatch(/^[0-9a-f]{32}$/);
    expect(secrets.webhook_secret).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(app)).not.toContain(secrets.token);

    const got = await client.getApp(app.id);
    expect(got).toEqual(app);
    expect(JSON.stringify(got)).not.toContain(secrets.token);
    expect(JSON.stringify(await client.listApps())).not.toContain(secrets.token);

    expect(await client.updateApp(app.id, { webhook_url: null })).toMatchObject({ webhook_url: null, name: 'Agent' });
    await client.archiveApp(app.id);
    expect((await client.restoreApp(app.id)).archived_at).toBeNull();
    expect(await client.getApp('424242')).toBeNull();
  });

  it('reads an existing app\'s secrets back (for a create whose answer was lost), null when missing', async () => {
    const { app, secrets } = await client.createApp({ name: 'Lost', package_name: 'com.example.lost', webhook_url: 'https://hooks.example/x' });
    expect((await client.getAppWithSecrets(app.id))?.secrets).toEqual(secrets);
    const bare = await client.createApp({ name: 'Bare', package_name: 'com.example.bare', webhook_url: null });
    expect((await client.getAppWithSecrets(bare.app.id))?.secrets).toEqual({ token: bare.secrets.token, webhook_secret: null });
    expect(await client.getAppWithSecrets('424242')).toBeNull();
  });
});

describe('operators and organization', () => {
  it('lists the world operators, names byte for byte', async () => {
    const ops = await client.listOperators();
    expect(ops.length).toBeGreaterThan(100);
    expect(ops.find((o) => o.id === 1923)).toEqual({ id: 1923, name: 'Vodafone/Mirsfone ', country_alpha2: 'eg', hnis: '60202' });
  });

  it('lists operators without any credentials (public endpoint)', async () => {
    const anon = createClient({ baseUrl: server.url });
    try {
      expect((await anon.listOperators()).length).toBeGreaterThan(100);
      expect(await anon.organizationId()).toBeNull();
    } finally {
      await anon.close();
    }
  });

  it('reads the organization from the token', async () => {
    expect(await client.organizationId()).toBe(server.org);
  });

  it('counts requests', async () => {
    const c = createClient({ baseUrl: server.url, token: server.token });
    try {
      await c.listActions();
      await c.getAction('00000000');
      expect(c.stats).toEqual({ requests: 2, retries: 0 });
    } finally {
      await c.close();
    }
  });
});
