import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, pointers, step, type Call } from './http.js';

let s: TestServer;
let api: Call;
beforeAll(async () => {
  s = await startTestServer();
  api = client(s);
});
afterAll(() => s.close());

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('actions', () => {
  it('creates an action with the spec envelope: 201, public id, operators and steps', async () => {
    const r = await api('POST', '/api/actions', actionBody());
    expect(r.status).toBe(201);
    const a = r.body.data;
    expect(a.id).toMatch(/^[0-9a-f]{8}$/);
    expect(a.type).toBe('custom_action');
    expect(a.attributes).toMatchObject({
      public_id: a.id, name: 'Check balance', description: null, root_code: '*144#', transport_type: 'ussd',
      organization_id: 1, archived_at: null, transactions_count: 0,
      operators: [['Safaricom Ltd.', null], ['Airtel/Zain/Celtel Ltd.', null]],
      steps: ['1', 'pin'],
    });
    expect(a.attributes.created_at).toMatch(ISO_Z);
    expect(a.attributes.updated_at).toMatch(ISO_Z);
    expect(a.relationships).toEqual({ organization: { data: { id: '1', type: 'organization' } } });
  });

  it('keeps operators in the order given and operator names byte-exact', async () => {
    const r = await api('POST', '/api/actions', actionBody({ world_operator_ids: ['2173', '1662'] }));
    expect(r.body.data.attributes.operators).toEqual([['Airtel/Zain/Celtel Ltd.', null], ['Areeba/MTN', null]]);
  });

  it('shows, lists (with and without trailing slash) in creation order with meta.count', async () => {
    const created = (await api('POST', '/api/actions', actionBody({ name: 'Listed' }))).body.data;
    const shown = await api('GET', `/api/actions/${created.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created);
    const a = await api('GET', '/api/actions/');
    const b = await api('GET', '/api/actions');
    expect(a.body).toEqual(b.body);
    expect(a.body.meta.count).toBe(a.body.data.length);
    const ids = a.body.data.map((x: { id: string }) => x.id);
    expect(ids[ids.length - 1]).toBe(created.id);
  });

  it('patches fields, replaces steps, and answers { data: Action }', async () => {
    const id = (await api('POST', '/api/actions', actionBody())).body.data.id;
    const r = await api('PATCH', `/api/actions/${id}`, {
      custom_action: { name: 'Renamed', custom_steps_attributes: { 0: step(0, 'variable', 'phone'), 1: step(1, 'select', 'bundle'), 2: step(2, 'ok') } },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.name).toBe('Renamed');
    expect(r.body.data.attributes.root_code).toBe('*144#');
    expect(r.body.data.attributes.steps).toEqual(['phone', 'bundle', '-']);
    const cleared = await api('PATCH', `/api/actions/${id}`, { custom_action: { custom_steps_attributes: {} } });
    expect(cleared.body.data.attributes.steps).toEqual([]);
    // With no steps left, a PATCH without custom_steps_attributes is fine.
    const ok = await api('PATCH', `/api/actions/${id}`, { custom_action: { root_code: '*100#' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.attributes.root_code).toBe('*100#');
  });

  it('rejects a PATCH that omits the steps of an action that has steps', async () => {
    const id = (await api('POST', '/api/actions', actionBody())).body.data.id;
    const r = await api('PATCH', `/api/actions/${id}`, { custom_action: { name: 'No steps sent' } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ code: 'steps_required', source: { pointer: '/custom_action/custom_steps_attributes' } });
    expect((await api('GET', `/api/actions/${id}`)).body.data.attributes.name).toBe('Check balance');
  });

  it('reports every invalid field at once with pointers', async () => {
    const r = await api('POST', '/api/actions', {
      custom_action: {
        name: '', transport_type: 'sms', world_operator_ids: ['2172', '999999', 'x'],
        custom_steps_attributes: {
          0: step(0, 'press', '1'),
          1: { ...step(1, 'press', '2'), convert_val_to_num: 'true' },
          2: { ...step(2, 'variable', 'v'), is_param: 'yes' },
          3: step(3, 'variable', 'v', { expected_text: 'menu' }),
        },
      },
    });
    expect(r.status).toBe(422);
    expect(pointers(r).sort()).toEqual([
      '/custom_action/custom_steps_attributes/1/convert_val_to_num',
      '/custom_action/custom_steps_attributes/2/is_param',
      '/custom_action/custom_steps_attributes/3/expected_text',
      '/custom_action/name',
      '/custom_action/root_code',
      '/custom_action/transport_type',
      '/custom_action/world_operator_ids/1',
      '/custom_action/world_operator_ids/2',
    ]);
    expect(r.body.errors.find((e: { source: { pointer: string } }) => e.source.pointer.endsWith('ids/1')).code).toBe('unknown_operator');
  });

  it('enforces the documented bounds', async () => {
    const tooManySteps = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [String(i), step(i, 'press', '1')]));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x'.repeat(256) }, '/custom_action/name'],
      [{ root_code: '*'.repeat(65) }, '/custom_action/root_code'],
      [{ world_operator_ids: [] }, '/custom_action/world_operator_ids'],
      [{ world_operator_ids: Array.from({ length: 51 }, () => '2172') }, '/custom_action/world_operator_ids'],
      [{ custom_steps_attributes: tooManySteps }, '/custom_action/custom_steps_attributes'],
      [{ custom_steps_attributes: { 0: step(0, 'press'), 2: step(2, 'press') } }, '/custom_action/custom_steps_attributes'],
      [{ custom_steps_attributes: { 0: step(0, 'press', 'abc') } }, '/custom_action/custom_steps_attributes/0/value'],
    ];
    for (const [over, pointer] of cases) {
      const r = await api('POST', '/api/actions', actionBody(over));
      expect(r.status, pointer).toBe(422);
      expect(pointers(r)).toContain(pointer);
    }
    // Exactly at the bounds is accepted.
    const edge = await api('POST', '/api/actions', actionBody({ name: 'x'.repeat(255), root_code: '*'.repeat(64) }));
    expect(edge.status).toBe(201);
  });

  it('archives and restores idempotently, listing archived actions and filtering with ?archived', async () => {
    const id = (await api('POST', '/api/actions', actionBody({ name: 'To archive' }))).body.data.id;
    const del = await api('DELETE', `/api/actions/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id, archived: true });
    const archivedAt = (await api('GET', `/api/actions/${id}`)).body.data.attributes.archived_at;
    expect(archivedAt).toMatch(ISO_Z);
    expect((await api('DELETE', `/api/actions/${id}`)).body).toEqual({ id, archived: true });
    expect((await api('GET', `/api/actions/${id}`)).body.data.attributes.archived_at).toBe(archivedAt);
    const all = (await api('GET', '/api/actions')).body.data.map((a: { id: string }) => a.id);
    const archived = (await api('GET', '/api/actions?archived=true')).body.data.map((a: { id: string }) => a.id);
    const active = (await api('GET', '/api/actions?archived=false')).body.data.map((a: { id: string }) => a.id);
    expect(all).toContain(id);
    expect(archived).toEqual([id]);
    expect(active).not.toContain(id);
    const restored = await api('PUT', `/api/actions/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.attributes.archived_at).toBeNull();
    const again = await api('PUT', `/api/actions/${id}/restore`);
    expect(again.status).toBe(200);
    expect(again.body.data.attributes.updated_at).toBe(restored.body.data.attributes.updated_at);
    expect((await api('GET', '/api/actions?archived=maybe')).status).toBe(400);
  });

  it('lists the parsers of an action, and 404s for an unknown action', async () => {
    const id = (await api('POST', '/api/actions', actionBody())).body.data.id;
    const p = await api('POST', '/api/parsers', { parser: { action_id: id, status: 'failed', regex: '.*wrong PIN.*', category: 'wrong-pin' } });
    const list = await api('GET', `/api/actions/${id}/parsers`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([p.body.data]);
    expect(list.body.meta).toEqual({ count: 1 });
    expect((await api('GET', '/api/actions/deadbeef/parsers')).status).toBe(404);
    expect((await api('GET', '/api/actions/deadbeef')).status).toBe(404);
  });
});
