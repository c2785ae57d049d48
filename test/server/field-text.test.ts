// Issue 10, items 2 and 3: a name with nothing visible in it (spaces, NUL) is refused with a
// pointer; a string with a lone surrogate is refused, so the server never acknowledges a value
// other than the one it was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, parserBody, pointers, type Call } from './http.js';

let s: TestServer;
let api: Call;
let actionId: string;
beforeAll(async () => {
  s = await startTestServer();
  api = client(s);
  actionId = (await api('POST', '/api/actions', actionBody({ name: 'Text checks' }))).body.data.id;
});
afterAll(() => s.close());

const appBody = (over: Record<string, unknown> = {}) => ({ app: { name: 'Agent', package_name: 'com.example.agent', ...over } });

// Built with JSON text so the lone surrogate travels as the escape a client would send.
const lone = (body: unknown, value: string) => JSON.stringify(body).replace('"@@"', value);

describe('blank text', () => {
  const blanks = ['   ', '\t\n', '\u0000', '\u0000\u0000 ', '\u00a0\u200b', '\u3000'];
  const cases: Array<[string, (v: string) => [string, string, unknown]]> = [
    ['/custom_action/name', (v) => ['POST', '/api/actions', actionBody({ name: v })]],
    ['/custom_action/root_code', (v) => ['POST', '/api/actions', actionBody({ name: 'rc', root_code: v })]],
    ['/parser/category', (v) => ['POST', '/api/parsers', parserBody(actionId, { category: v })]],
    ['/parser/regex', (v) => ['POST', '/api/parsers', parserBody(actionId, { category: 'r', regex: v })]],
    ['/app/name', (v) => ['POST', '/api/apps', appBody({ name: v })]],
  ];
  for (const [pointer, make] of cases) {
    it(`${pointer}: 422 blank for text with nothing visible in it`, async () => {
      for (const b of blanks) {
        const [method, path, body] = make(b);
        const r = await api(method, path, body);
        expect(r.status, JSON.stringify(b)).toBe(422);
        expect(pointers(r)).toEqual([pointer]);
        expect(r.body.errors[0].code).toBe('blank');
      }
    });
  }

  it('PATCH refuses a blank name too', async () => {
    const r = await api('PATCH', `/api/actions/${actionId}`, actionBody({ name: '  \u0000 ' }));
    expect(r.status).toBe(422);
    expect(pointers(r)).toEqual(['/custom_action/name']);
  });

  it('text with something visible around spaces is kept exactly as sent', async () => {
    const r = await api('POST', '/api/actions', actionBody({ name: '  Padded  name ' }));
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.name).toBe('  Padded  name ');
  });
});

describe('lone surrogates', () => {
  it.each([
    ['/custom_action/name', () => ['/api/actions', lone(actionBody({ name: '@@' }), '"x\\ud800y"')]],
    ['/custom_action/root_code', () => ['/api/actions', lone(actionBody({ root_code: '@@' }), '"*1\\udc00#"')]],
    ['/parser/regex', () => ['/api/parsers', lone(parserBody(actionId, { category: 'ls', regex: '@@' }), '"a\\ud83d"')]],
    ['/parser/user_message', () => ['/api/parsers', lone(parserBody(actionId, { category: 'ls', user_message: '@@' }), '"\\ude00"')]],
    ['/app/name', () => ['/api/apps', lone(appBody({ name: '@@' }), '"\\udfff and more"')]],
    ['/custom_action/custom_steps_attributes/0/description', () => ['/api/actions',
      lone(actionBody({ name: 'steps', custom_steps_attributes: { 0: { order: '0', is_param: 'false', convert_val_to_num: 'false', value: '1', description: '@@' } } }), '"\\ud800"')]],
  ] as const)('%s: 422, nothing stored', async (pointer, make) => {
    const [path, text] = make();
    const before = (await api('GET', '/api/actions')).body.data.length;
    const r = await api('POST', path, text);
    expect(r.status).toBe(422);
    expect(pointers(r)).toEqual([pointer]);
    expect(r.body.errors[0].code).toBe('invalid_text');
    expect((await api('GET', '/api/actions')).body.data.length).toBe(before);
  });

  it('a surrogate pair (an emoji) is whole text: stored and echoed exactly', async () => {
    const r = await api('POST', '/api/actions', lone(actionBody({ name: '@@' }), '"Balance \\ud83d\\udcb0"'));
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.name).toBe('Balance \u{1F4B0}');
    const back = await api('GET', `/api/actions/${r.body.data.id}`);
    expect(back.body.data.attributes.name).toBe('Balance \u{1F4B0}');
  });
});
