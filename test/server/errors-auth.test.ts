import { SignJWT, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../helpers/server.js';
import { actionBody, client, parserBody, type Call, type Res } from './http.js';

let s: TestServer;
let api: Call;
beforeAll(async () => {
  s = await startTestServer({ users: [{ email: 'ops@example.com', password: 'pa:ss', organization_id: 7 }] });
  api = client(s);
});
afterAll(() => s.close());

function expectError(r: Res, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body.errors[0]).toMatchObject({ status: String(status), code });
  expect(typeof r.body.errors[0].title).toBe('string');
  expect(typeof r.body.errors[0].detail).toBe('string');
}

const key = new TextEncoder().encode(TEST_JWT_SECRET);

describe('error statuses', () => {
  it('400 on malformed JSON', async () => {
    expectError(await api('POST', '/api/actions', '{"custom_action": '), 400, 'malformed_json');
  });
  it('404 on an unknown route', async () => {
    expectError(await api('GET', '/api/nothing'), 404, 'not_found');
  });
  it('405 with an Allow header', async () => {
    const r = await api('DELETE', '/api/actions');
    expectError(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET, POST');
  });
  it('413 on a body over 1 MiB', async () => {
    const big = JSON.stringify(actionBody({ name: 'x'.repeat(1024 * 1024) }));
    expectError(await api('POST', '/api/actions', big), 413, 'payload_too_large');
  });
  it('415 on a body that is not application/json', async () => {
    expectError(await api('POST', '/api/actions', JSON.stringify(actionBody()), { 'Content-Type': 'text/plain' }), 415, 'unsupported_media_type');
  });
  it('422 on a body without the resource wrapper', async () => {
    const r = await api('POST', '/api/apps', { name: 'x' });
    expectError(r, 422, 'required');
    expect(r.body.errors[0].source).toEqual({ pointer: '/app' });
  });
});

describe('authentication', () => {
  const rejected = async (token: string | null, code: string) => {
    const r = await client(s, token)('GET', '/api/actions');
    expectError(r, 401, code);
  };
  it('accepts the raw token and the Bearer form', async () => {
    expect((await client(s, s.token)('GET', '/api/actions')).status).toBe(200);
    expect((await client(s, `Bearer ${s.token}`)('GET', '/api/actions')).status).toBe(200);
  });
  it('rejects a missing token', () => rejected(null, 'missing_token'));
  it('rejects alg none', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = base64url.encode(JSON.stringify({ organization_id: 1, exp: Math.floor(Date.now() / 1000) + 600 }));
    await rejected(`${header}.${payload}.`, 'invalid_token');
  });
  it('rejects HS512', async () => {
    const t = await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS512' }).setExpirationTime('1h').sign(key);
    await rejected(t, 'invalid_token');
  });
  it('rejects a bad signature', async () => {
    const t = await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret'));
    await rejected(t, 'invalid_token');
  });
  it('rejects an expired token', async () => {
    const t = await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 120).sign(key);
    await rejected(t, 'token_expired');
  });
  it('rejects tokens without an integer organization_id, or without exp', async () => {
    await rejected(await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid_token');
    await rejected(await new SignJWT({ organization_id: '1' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid_token');
    await rejected(await new SignJWT({ organization_id: 1.5 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid_token');
    await rejected(await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' }).sign(key), 'invalid_token');
  });
  it('names the claim when a token of this server lacks exp; a forged one is not told which claim', async () => {
    const noExp = await client(s, await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' }).sign(key))('GET', '/api/actions');
    expectError(noExp, 401, 'invalid_token');
    expect(noExp.body.errors[0].detail).toMatch(/the token's exp claim is missing: obtain a new token/);
    const forged = await client(s, await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret')))('GET', '/api/actions');
    expectError(forged, 401, 'invalid_token');
    expect(forged.body.errors[0].detail).toBe('the token is not a valid HS256 JWT signed by this server');
  });
  it('accepts a token minted by a JWT library with the shared secret', async () => {
    const t = await new SignJWT({ organization_id: 3 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(key);
    expect((await client(s, t)('GET', '/api/apps')).status).toBe(200);
  });
  it('POST /api/authenticate returns a 2-hour token for the account organization; wrong credentials 401', async () => {
    const pub = client(s, null);
    const ok = await pub('POST', '/api/authenticate', { email: 'ops@example.com', password: 'pa:ss' });
    expect(ok.status).toBe(200);
    const [, payload] = ok.body.auth_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    expect(claims.organization_id).toBe(7);
    expect(claims.exp - claims.iat).toBe(7200);
    const created = await client(s, ok.body.auth_token)('POST', '/api/apps', { app: { name: 'a', package_name: 'com.a.b' } });
    expect(created.body.data.attributes.organization_id).toBe(7);
    expectError(await pub('POST', '/api/authenticate', { email: 'ops@example.com', password: 'nope' }), 401, 'invalid_credentials');
    expectError(await pub('POST', '/api/authenticate', { email: 'who@example.com', password: 'pa:ss' }), 401, 'invalid_credentials');
    expect((await pub('POST', '/api/authenticate', {})).status).toBe(422);
  });
});

describe('world operators', () => {
  it('is public, string ids, byte-exact names, and filters by country', async () => {
    const all = await client(s, null)('GET', '/api/world_operators');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBe(110);
    expect(all.body.data[0]).toEqual({ id: '1662', type: 'world_operator', attributes: { name: 'Areeba/MTN', country_alpha2: 'af', hnis: '41240' } });
    const ke = await client(s, null)('GET', '/api/world_operators?country=KE');
    expect(ke.body.data.map((o: { id: string }) => o.id)).toEqual(['2171', '2172', '2173']);
    const spaced = all.body.data.filter((o: { attributes: { name: string } }) => o.attributes.name !== o.attributes.name.trim());
    expect(spaced.length).toBeGreaterThan(0);
  });
});

describe('tenancy', () => {
  it('another organization cannot see or touch org 1 resources: 404 everywhere', async () => {
    const action = (await api('POST', '/api/actions', actionBody())).body.data.id;
    const parser = (await api('POST', '/api/parsers', parserBody(action))).body.data.id;
    const app = (await api('POST', '/api/apps', { app: { name: 'x', package_name: 'com.x.y' } })).body.data.id;
    const org2 = client(s, await s.mintToken(2));
    for (const [m, p, b] of [
      ['GET', `/api/actions/${action}`], ['PATCH', `/api/actions/${action}`, { custom_action: { name: 'x' } }],
      ['DELETE', `/api/actions/${action}`], ['PUT', `/api/actions/${action}/restore`], ['GET', `/api/actions/${action}/parsers`],
      ['GET', `/api/parsers/${parser}`], ['PATCH', `/api/parsers/${parser}`, { parser: { regex: 'x' } }],
      ['DELETE', `/api/parsers/${parser}`], ['PUT', `/api/parsers/${parser}/restore`],
      ['GET', `/api/apps/${app}`], ['PATCH', `/api/apps/${app}`, { app: { name: 'x' } }],
      ['DELETE', `/api/apps/${app}`], ['PUT', `/api/apps/${app}/restore`],
    ] as Array<[string, string, unknown?]>) {
      const r = await org2(m, p, b);
      expect(r.status, `${m} ${p}`).toBe(404);
      expect(r.body.errors[0].code).toBe('not_found');
    }
    expect((await org2('GET', '/api/actions')).body.data).toEqual([]);
    expect((await org2('GET', '/api/apps')).body.data).toEqual([]);
    const cross = await org2('POST', '/api/parsers', parserBody(action, { category: 'x' }));
    expect(cross.status).toBe(422);
    expect(cross.body.errors[0].code).toBe('unknown_action');
    // Nothing changed for org 1.
    expect((await api('GET', `/api/actions/${action}`)).body.data.attributes).toMatchObject({ name: 'Check balance', archived_at: null });
  });
});
