// Logging in with email/password against the reference server, and again when the token expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../helpers/server.js';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';

const EMAIL = 'ops@example.com';
const PASSWORD = 'correct horse battery staple';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ users: [{ email: EMAIL, password: PASSWORD, organization_id: 7 }] });
});
afterAll(async () => {
  await server?.close();
});

async function expiredToken(org: number): Promise<string> {
  return new SignJWT({ organization_id: org })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7300)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

describe('email and password', () => {
  it('logs in lazily, once, however many requests start together', async () => {
    server.resetStats();
    const client = createClient({ baseUrl: server.url, email: EMAIL, password: PASSWORD });
    try {
      expect(server.stats().byRoute['POST /api/authenticate'] ?? 0).toBe(0);
      await Promise.all([client.listActions(), client.listApps(), client.listActions(), client.organizationId()]);
      expect(server.stats().byRoute['POST /api/authenticate']).toBe(1);
      expect(await client.organizationId()).toBe(7);
    } finally {
      await client.close();
    }
  });

  it('logs in again once when the token has expired, and repeats the request', async () => {
    server.resetStats();
    const retries: string[] = [];
    const client = createClient({
      baseUrl: server.url, token: await expiredToken(7), email: EMAIL, password: PASSWORD,
      onRetry: (info) => retries.push(info.reason),
    });
    try {
      const results = await Promise.all([client.listActions(), client.listActions(), client.listActions()]);
      expect(results.every(Array.isArray)).toBe(true);
      expect(server.stats().byRoute['POST /api/authenticate']).toBe(1);
      expect(retries).toEqual(['401 (logging in again)', '401 (logging in again)', '401 (logging in again)']);
    } finally {
      await client.close();
    }
  });

  it('fails a rejected static token with a 401 ApiError, without the token in the message', async () => {
    const token = await expiredToken(1);
    const client = createClient({ baseUrl: server.url, token });
    try {
      const err = await client.listActions().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(401);
      expect((err as ApiError).message).toMatch(/^GET \/api\/actions: 401 /);
      expect((err as ApiError).message).not.toContain(token);
    } finally {
      await client.close();
    }
  });

  it('reports a wrong password without repeating it', async () => {
    const wrong = 'hunter2-not-the-password';
    const client = createClient({ baseUrl: server.url, email: EMAIL, password: wrong });
    try {
      const err = await client.listActions().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toMatch(/^POST \/api\/authenticate: 401 invalid_credentials/);
      expect((err as ApiError).message).not.toContain(wrong);
      expect(JSON.stringify(err)).not.toContain(wrong);
    } finally {
      await client.close();
    }
  });
});
