// Issue 10, item 1: every oversized body, however it is framed, gets a 413 JSON error and the
// server keeps serving. Raw sockets, because fetch always frames bodies honestly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { chunk, head, rawExchange, type RawAnswer } from './raw.js';

let s: TestServer;
let port: number;
beforeAll(async () => {
  s = await startTestServer();
  port = Number(new URL(s.url).port);
});
afterAll(() => s.close());

const MiB = 1024 * 1024;
const piece = 'x'.repeat(64 * 1024);

function expectJsonError(a: RawAnswer, status: number, code: string): void {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(a.body);
  expect(body.errors[0]).toMatchObject({ status: String(status), code });
}

async function stillServing(): Promise<void> {
  const r = await fetch(`${s.url}/api/actions`, { headers: { Authorization: s.token } });
  expect(r.status).toBe(200);
}

describe('oversized bodies', () => {
  for (const [route, auth] of [['/api/authenticate', false], ['/api/actions', true]] as const) {
    it(`chunked over 1 MiB to ${route}${auth ? '' : ' (no token)'}: 413, and the server lives on`, async () => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' };
      if (auth) headers.Authorization = s.token;
      const frames = Array.from({ length: 20 }, () => chunk(piece));
      const a = await rawExchange(port, { pieces: [head('POST', route, headers), ...frames, '0\r\n\r\n'], responses: 1 });
      expectJsonError(a, 413, 'payload_too_large');
      await stillServing();
    });
  }

  it('chunked over 1 MiB that never ends: 413 without waiting for the end', async () => {
    const frames = Array.from({ length: 24 }, () => chunk(piece));
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }), ...frames],
      responses: 1,
    });
    expectJsonError(a, 413, 'payload_too_large');
    await stillServing();
  });

  it('a declared Content-Length over 1 MiB: 413 before any of the body is read', async () => {
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/actions', { 'Content-Type': 'application/json', 'Content-Length': 2 * MiB, Authorization: s.token })],
      responses: 1,
    });
    expectJsonError(a, 413, 'payload_too_large');
    await stillServing();
  });

  it('a slow trickle over 1 MiB: 413 once the limit is passed', async () => {
    const pieces: Array<string | number> = [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' })];
    for (let i = 0; i < 18; i++) pieces.push(chunk(piece), 10);
    const a = await rawExchange(port, { pieces, responses: 1, timeoutMs: 10_000 });
    expectJsonError(a, 413, 'payload_too_large');
    await stillServing();
  });

  it('a Content-Length that lies (says 20, sends 2 MiB): JSON 4xx answers, never a crash', async () => {
    const body = `{"email":"a@b.c", "password": "${'y'.repeat(2 * MiB)}"}`;
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Content-Length': 20 }), body],
      responses: 2,
    });
    // The first 20 bytes are the body (not valid JSON); the rest is garbage where a request should be.
    expectJsonError(a, 400, 'malformed_json');
    expect(a.raw).toMatch(/HTTP\/1\.1 400 Bad Request[\s\S]*"code":"bad_request"/);
    await stillServing();
  });

  it('after an oversized chunked body the same connection serves the next request', async () => {
    const headers = { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' };
    const frames = Array.from({ length: 20 }, () => chunk(piece));
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', headers), ...frames, '0\r\n\r\n', head('GET', '/api/world_operators?country=ke')],
      responses: 2,
    });
    expectJsonError(a, 413, 'payload_too_large');
    expect(a.raw).toMatch(/HTTP\/1\.1 200 OK/);
  });
});

describe('body encoding', () => {
  it('a body that is not valid UTF-8 is refused (400), not stored with replacement characters', async () => {
    const body = Buffer.concat([Buffer.from('{"email":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('@b.c","password":"x"}')]);
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Content-Length': body.length }), body],
      responses: 1,
    });
    expectJsonError(a, 400, 'malformed_json');
    expect(JSON.parse(a.body).errors[0].detail).toMatch(/UTF-8/);
  });
});
