import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, parserBody, pointers, type Call } from './http.js';

let s: TestServer;
let api: Call;
let action: { id: string };
let internalId: string;
beforeAll(async () => {
  s = await startTestServer();
  api = client(s);
  action = (await api('POST', '/api/actions', actionBody())).body.data;
  // A second action first, so the internal ids of actions and parsers differ from 1.
  await api('POST', '/api/actions', actionBody({ name: 'other' }));
});
afterAll(() => s.close());

describe('parsers', () => {
  it('creates a parser: numeric string id, ussd default, internal action id in relationships', async () => {
    const r = await api('POST', '/api/parsers', parserBody(action.id));
    expect(r.status).toBe(201);
    const p = r.body.data;
    expect(p.id).toMatch(/^[0-9]+$/);
    expect(p.type).toBe('custom_parser');
    expect(p.attributes).toMatchObject({
      id: Number(p.id), status: 'succeeded', category: 'balance', target_type: 'ussd', sender: null,
      regex: 'Your balance is (?<balance>[\\d,.]+).*', user_message: 'Balance is {balance}',
      archived_at: null, custom_action_public_id: action.id, transactions_count: 0,
    });
    internalId = p.relationships.custom_action.data.id;
    expect(p.relationships.custom_action.data.type).toBe('custom_action');
    expect(internalId).toMatch(/^[0-9]+$/);
    expect(internalId).not.toBe(action.id);
    expect((await api('GET', `/api/parsers/${p.id}`)).body.data).toEqual(p);
  });

  it('defaults user_message to "" and accepts a regex JavaScript cannot compile', async () => {
    const r = await api('POST', '/api/parsers', parserBody(action.id, { category: 'odd', user_message: undefined, regex: '.?*UGX (<x>\\d+)' }));
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.user_message).toBe('');
  });

  it('accepts target_type sms with a sender, and requires the sender', async () => {
    const sms = await api('POST', '/api/parsers', parserBody(action.id, { category: 'sms-ok', target_type: 'sms', sender: 'MPESA', status: 'pending' }));
    expect(sms.status).toBe(201);
    expect(sms.body.data.attributes).toMatchObject({ target_type: 'sms', sender: 'MPESA', status: 'pending' });
    const missing = await api('POST', '/api/parsers', parserBody(action.id, { category: 'sms-bad', target_type: 'sms' }));
    expect(missing.status).toBe(422);
    expect(pointers(missing)).toEqual(['/parser/sender']);
    const toUssd = await api('PATCH', `/api/parsers/${sms.body.data.id}`, { parser: { target_type: 'ussd' } });
    expect(toUssd.body.data.attributes).toMatchObject({ target_type: 'ussd', sender: null });
  });

  it('reports every invalid field, and an unknown action as a field error', async () => {
    const r = await api('POST', '/api/parsers', { parser: { status: 'ok', regex: '', category: 'c'.repeat(256), user_message: 'm'.repeat(1025), sender: 's'.repeat(65), target_type: 'email' } });
    expect(r.status).toBe(422);
    expect(pointers(r).sort()).toEqual([
      '/parser/action_id', '/parser/category', '/parser/regex', '/parser/sender', '/parser/status', '/parser/target_type', '/parser/user_message',
    ]);
    const unknown = await api('POST', '/api/parsers', parserBody('00000000'));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'unknown_action', source: { pointer: '/parser/action_id' } });
    const long = await api('POST', '/api/parsers', parserBody(action.id, { category: 'long', regex: 'x'.repeat(4097) }));
    expect(pointers(long)).toEqual(['/parser/regex']);
  });

  it('patches any field and refuses to move a parser to another action', async () => {
    const id = (await api('POST', '/api/parsers', parserBody(action.id, { category: 'patchme' }))).body.data.id;
    const r = await api('PATCH', `/api/parsers/${id}`, { parser: { regex: 'new.*', status: 'failed', category: 'patched', user_message: 'x' } });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ regex: 'new.*', status: 'failed', category: 'patched', user_message: 'x' });
    const move = await api('PATCH', `/api/parsers/${id}`, { parser: { action_id: 'ffffffff' } });
    expect(move.status).toBe(422);
    expect(pointers(move)).toEqual(['/parser/action_id']);
  });

  it('keeps category unique among active parsers of an action (409), across create, patch and restore', async () => {
    const first = (await api('POST', '/api/parsers', parserBody(action.id, { category: 'dup' }))).body.data.id;
    const clash = await api('POST', '/api/parsers', parserBody(action.id, { category: 'dup' }));
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatchObject({ code: 'category_taken', source: { pointer: '/parser/category' } });
    const other = (await api('POST', '/api/parsers', parserBody(action.id, { category: 'dup2' }))).body.data.id;
    expect((await api('PATCH', `/api/parsers/${other}`, { parser: { category: 'dup' } })).status).toBe(409);
    expect((await api('DELETE', `/api/parsers/${first}`)).body).toEqual({ id: first, archived: true });
    // Archived parsers free their category.
    const second = await api('POST', '/api/parsers', parserBody(action.id, { category: 'dup' }));
    expect(second.status).toBe(201);
    expect((await api('PUT', `/api/parsers/${first}/restore`)).status).toBe(409);
  });

  it('archives and restores idempotently; parsers of an archived action stay as they are', async () => {
    const act = (await api('POST', '/api/actions', actionBody({ name: 'archived parent' }))).body.data.id;
    const id = (await api('POST', '/api/parsers', parserBody(act))).body.data.id;
    expect((await api('DELETE', `/api/actions/${act}`)).status).toBe(200);
    expect((await api('GET', `/api/parsers/${id}`)).body.data.attributes.archived_at).toBeNull();
    // Creating a parser on an archived action is allowed.
    expect((await api('POST', '/api/parsers', parserBody(act, { category: 'late' }))).status).toBe(201);
    expect((await api('DELETE', `/api/parsers/${id}`)).body).toEqual({ id, archived: true });
    expect((await api('DELETE', `/api/parsers/${id}`)).body).toEqual({ id, archived: true });
    const list = await api('GET', `/api/actions/${act}/parsers?archived=true`);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    const restored = await api('PUT', `/api/parsers/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.attributes.archived_at).toBeNull();
    expect((await api('PUT', `/api/parsers/${id}/restore`)).status).toBe(200);
  });

  it('404s for unknown and non-numeric parser ids', async () => {
    expect((await api('GET', '/api/parsers/999999')).status).toBe(404);
    expect((await api('GET', '/api/parsers/abc')).status).toBe(404);
    expect((await api('PATCH', '/api/parsers/999999', { parser: { regex: 'x' } })).status).toBe(404);
    expect((await api('DELETE', '/api/parsers/999999')).status).toBe(404);
    expect((await api('PUT', '/api/parsers/999999/restore')).status).toBe(404);
  });
});
