// Issue 10, items 5 and 6 (first half): the rate limit counts per verified token, however its
// header is spelled; a token issued in the future is refused, within a documented clock skew.
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOCK_SKEW_S } from '../../src/server/auth.js';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../helpers/server.js';
import { client } from './http.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const key = new TextEncoder().encode(TEST_JWT_SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** The same signature bytes, spelled differently: base64url's last character carries 2 spare bits. */
function respelled(token: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(token.at(-1)!);
  return token.slice(0, -1) + alphabet[last ^ 1];
}

describe('rate limit keyed on the verified token', () => {
  it('spellings of one token share one allowance', async () => {
    s = await startTestServer({ rateLimit: 3 });
    const t = s.token;
    const variants = [t, `Bearer ${t}`, `bearer   ${t}`, ` ${t} `, respelled(t), `Bearer ${respelled(t)}`];
    const statuses: number[] = [];
    for (const v of variants) statuses.push((await client(s, v)('GET', '/api/actions')).status);
    // Each spelling is a valid credential on its own...
    expect(statuses.filter((x) => x !== 200 && x !== 429)).toEqual([]);
    // ...but together they get the allowance of one token (3 in this burst), not one each.
    expect(statuses.filter((x) => x === 200)).toHaveLength(3);
  });

  it('another token has its own allowance, and requests without a valid token are limited by address', async () => {
    s = await startTestServer({ rateLimit: 2 });
    for (let i = 0; i < 3; i++) await client(s)('GET', '/api/actions');
    expect((await client(s)('GET', '/api/actions')).status).toBe(429);
    expect((await client(s, await s.mintToken(1, '1h'))('GET', '/api/actions')).status).toBe(200);
    const bogus = [0, 1, 2, 3].map((i) => `not.a.token${i}`);
    const statuses = [];
    for (const b of bogus) statuses.push((await client(s, b)('GET', '/api/actions')).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe('iat', () => {
  const token = (iat: number) =>
    new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(iat).setExpirationTime(now() + 7200).sign(key);

  it('a token issued in the future is refused with 401 token_not_yet_valid', async () => {
    s = await startTestServer();
    const r = await client(s, await token(now() + 3600))('GET', '/api/actions');
    expect(r.status).toBe(401);
    expect(r.body.errors[0]).toMatchObject({ code: 'token_not_yet_valid', source: { header: 'Authorization' } });
  });

  it(`a token issued up to ${CLOCK_SKEW_S} s ahead (clock skew) is accepted`, async () => {
    s = await startTestServer();
    expect((await client(s, await token(now() + CLOCK_SKEW_S - 10))('GET', '/api/actions')).status).toBe(200);
    expect((await client(s, await token(now() + CLOCK_SKEW_S + 10))('GET', '/api/actions')).status).toBe(401);
  });
});
