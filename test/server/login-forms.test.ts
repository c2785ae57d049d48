// Issue 26 item 2: Hover's own clients. Its Android runner logs in with multipart/form-data, and
// Rails-style APIs take JSON, multipart and urlencoded alike; timestamps are in whole seconds, as
// every documented example shows them. Real server on port 0, real HTTP over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client } from './http.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ users: [{ email: 'ops@example.com', password: 'pa:ss&=é', organization_id: 7 }] });
});
afterAll(() => s.close());

const login = (body: NonNullable<RequestInit['body']>, headers: Record<string, string> = {}) => fetch(`${s.url}/api/authenticate`, { method: 'POST', body, headers });

async function organizationOf(res: Response): Promise<number> {
  expect(res.status).toBe(200);
  const { auth_token } = (await res.json()) as { auth_token: string };
  return JSON.parse(Buffer.from(auth_token.split('.')[1]!, 'base64url').toString('utf8')).organization_id as number;
}

describe('POST /api/authenticate takes all three body types', () => {
  it('JSON', async () => {
    expect(await organizationOf(await login(JSON.stringify({ email: 'ops@example.com', password: 'pa:ss&=é' }), { 'Content-Type': 'application/json' }))).toBe(7);
  });

  it('multipart/form-data (fetch FormData, boundary chosen by the client)', async () => {
    const form = new FormData();
    form.append('email', 'ops@example.com');
    form.append('password', 'pa:ss&=é');
    expect(await organizationOf(await login(form))).toBe(7);
  });

  it('multipart/form-data as an Android HTTP client writes it (CRLF parts, charset on the part)', async () => {
    const b = 'okhttp-boundary-1b2c';
    const part = (name: string, value: string) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${value}\r\n`;
    const body = `${part('email', 'ops@example.com')}${part('password', 'pa:ss&=é')}--${b}--\r\n`;
    expect(await organizationOf(await login(body, { 'Content-Type': `multipart/form-data; boundary=${b}` }))).toBe(7);
  });

  it('application/x-www-form-urlencoded', async () => {
    expect(await organizationOf(await login(new URLSearchParams({ email: 'ops@example.com', password: 'pa:ss&=é' })))).toBe(7);
  });

  it('a form with the wrong password is 401 like JSON; a missing field 422; a file part 422; text/plain 415', async () => {
    expect((await login(new URLSearchParams({ email: 'ops@example.com', password: 'nope' }))).status).toBe(401);
    const missing = await login(new URLSearchParams({ email: 'ops@example.com' }));
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('required');
    const withFile = new FormData();
    withFile.append('email', 'ops@example.com');
    withFile.append('password', new Blob(['pa:ss&=é']), 'password.txt');
    const file = await login(withFile);
    expect(file.status).toBe(422);
    expect(((await file.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('invalid_type');
    const plain = await login('email=ops@example.com', { 'Content-Type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { errors: Array<{ detail: string }> }).errors[0]!.detail).toMatch(/multipart\/form-data/);
  });

  it('a multipart body that does not parse is 400 malformed_form', async () => {
    const res = await login('no boundary here', { 'Content-Type': 'multipart/form-data; boundary=xyz' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('malformed_form');
  });

  it('resource writes stay JSON only: a form on POST /api/apps is 415', async () => {
    const res = await fetch(`${s.url}/api/apps`, { method: 'POST', headers: { Authorization: s.token }, body: new URLSearchParams({ 'app[name]': 'a' }) });
    expect(res.status).toBe(415);
  });
});

describe('timestamps', () => {
  it('are ISO 8601 UTC in whole seconds, as documented (2020-02-10T16:13:55Z)', async () => {
    const api = client(s);
    const created = await api('POST', '/api/actions', actionBody());
    expect(created.status).toBe(201);
    const a = created.body.data.attributes;
    for (const t of [a.created_at, a.updated_at]) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const archived = await api('DELETE', `/api/actions/${created.body.data.id}`);
    expect(archived.status).toBe(200);
    const read = await api('GET', `/api/actions/${created.body.data.id}`);
    expect(read.body.data.attributes.archived_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});
