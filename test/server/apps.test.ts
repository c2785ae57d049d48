import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { client, pointers, type Call } from './http.js';

let s: TestServer;
let api: Call;
beforeAll(async () => {
  s = await startTestServer();
  api = client(s);
});
afterAll(() => s.close());

const HEX32 = /^[0-9a-f]{32}$/;

describe('apps', () => {
  it('creates an app with generated token and webhook secret, and the spec defaults', async () => {
    const r = await api('POST', '/api/apps', { app: { name: 'Field agent', package_name: 'com.example.agent', webhook_url: 'https://hooks.example.com/in' } });
    expect(r.status).toBe(201);
    const a = r.body.data;
    expect(a.id).toMatch(/^[0-9]+$/);
    expect(a.type).toBe('app');
    expect(a.attributes).toMatchObject({
      id: Number(a.id), icon: 'noimg.svg', name: 'Field agent', package_name: 'com.example.agent',
      webhook_url: 'https://hooks.example.com/in', organization_id: 1, archived_at: null,
      transactions_count: 0, is_tester: false, apk_url: null,
    });
    expect(a.attributes.token).toMatch(HEX32);
    expect(a.attributes.webhook_secret).toMatch(HEX32);
    expect(a.attributes.webhook_secret).not.toBe(a.attributes.token);
    expect(a.relationships).toEqual({ organization: { data: { id: '1', type: 'organization' } } });
    expect((await api('GET', `/api/apps/${a.id}`)).body.data).toEqual(a);
  });

  it('has a webhook_secret exactly when it has a webhook_url', async () => {
    const a = (await api('POST', '/api/apps', { app: { name: 'No hook', package_name: 'com.example.nohook' } })).body.data;
    expect(a.attributes.webhook_url).toBeNull();
    expect(a.attributes.webhook_secret).toBeNull();
    const added = (await api('PATCH', `/api/apps/${a.id}`, { app: { webhook_url: 'http://h.example/x' } })).body.data;
    expect(added.attributes.webhook_secret).toMatch(HEX32);
    const moved = (await api('PATCH', `/api/apps/${a.id}`, { app: { webhook_url: 'http://h.example/y' } })).body.data;
    expect(moved.attributes.webhook_secret).toBe(added.attributes.webhook_secret);
    const removed = (await api('PATCH', `/api/apps/${a.id}`, { app: { webhook_url: null } })).body.data;
    expect(removed.attributes).toMatchObject({ webhook_url: null, webhook_secret: null });
  });

  it('patches name and package_name and ignores read-only fields', async () => {
    const a = (await api('POST', '/api/apps', { app: { name: 'P', package_name: 'com.example.p' } })).body.data;
    const r = await api('PATCH', `/api/apps/${a.id}`, { app: { name: 'Q', package_name: 'com.example.q', token: 'mine' } });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ name: 'Q', package_name: 'com.example.q', token: a.attributes.token });
  });

  it('validates name, package name and webhook URL, all at once', async () => {
    const r = await api('POST', '/api/apps', { app: { name: '', package_name: 'not a package', webhook_url: 'ftp://x.example' } });
    expect(r.status).toBe(422);
    expect(pointers(r).sort()).toEqual(['/app/name', '/app/package_name', '/app/webhook_url']);
    const long = await api('POST', '/api/apps', { app: { name: 'L', package_name: 'com.example.l', webhook_url: `https://x.example/${'a'.repeat(2048)}` } });
    expect(pointers(long)).toEqual(['/app/webhook_url']);
    const missing = await api('POST', '/api/apps', { app: {} });
    expect(pointers(missing).sort()).toEqual(['/app/name', '/app/package_name']);
  });

  it('archives with an integer id, restores, idempotently; lists with meta.count and ?archived', async () => {
    const a = (await api('POST', '/api/apps', { app: { name: 'Arch', package_name: 'com.example.arch' } })).body.data;
    const del = await api('DELETE', `/api/apps/${a.id}`);
    expect(del.body).toEqual({ id: Number(a.id), archived: true });
    expect((await api('DELETE', `/api/apps/${a.id}`)).body).toEqual({ id: Number(a.id), archived: true });
    const list = await api('GET', '/api/apps');
    expect(list.body.meta.count).toBe(list.body.data.length);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(a.id);
    expect((await api('GET', '/api/apps?archived=true')).body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await api('GET', '/api/apps?archived=false')).body.data.map((x: { id: string }) => x.id)).not.toContain(a.id);
    const restored = await api('PUT', `/api/apps/${a.id}/restore`);
    expect(restored.body.data.attributes.archived_at).toBeNull();
    expect((await api('PUT', `/api/apps/${a.id}/restore`)).status).toBe(200);
    expect((await api('GET', '/api/apps/424242')).status).toBe(404);
  });
});
