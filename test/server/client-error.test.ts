// Issue 10, item 6 (second half): what Node's HTTP parser refuses before any handler runs
// (headers too large, broken framing, a request that does not arrive in time) is answered with
// the same JSON error body as every other failure, and the server keeps serving.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { chunk, head, rawExchange, type RawAnswer } from './raw.js';

let s: TestServer;
let port: number;
beforeAll(async () => {
  s = await startTestServer({ requestTimeoutMs: 400 });
  port = Number(new URL(s.url).port);
});
afterAll(() => s.close());

function expectJsonError(a: RawAnswer, status: number, code: string): void {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(a.body);
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ status: String(status), code });
  expect(body.errors[0].detail).toEqual(expect.any(String));
}

afterEach(async () => {
  const r = await fetch(`${s.url}/api/world_operators?country=ke`);
  expect(r.status).toBe(200);
});

describe('refused by the HTTP parser', () => {
  it('431 with a JSON body for headers over 16 KiB', async () => {
    const a = await rawExchange(port, { pieces: [head('GET', '/api/actions', { 'X-Big': 'b'.repeat(20_000) })], responses: 1 });
    expectJsonError(a, 431, 'header_too_large');
  });

  it('400 with a JSON body for a malformed request line', async () => {
    const a = await rawExchange(port, { pieces: ['GET /api/actions HTTP/9.9 nonsense\r\n\r\n'], responses: 1 });
    expectJsonError(a, 400, 'bad_request');
  });

  it('400 with a JSON body for both Content-Length and Transfer-Encoding', async () => {
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Content-Length': 5, 'Transfer-Encoding': 'chunked' }), '0\r\n\r\n'],
      responses: 1,
    });
    expectJsonError(a, 400, 'bad_request');
  });

  it('400 with a JSON body for broken chunk framing in the middle of a body', async () => {
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }), chunk('{"em'), 'zz\r\nnot a chunk\r\n'],
      responses: 1,
    });
    expectJsonError(a, 400, 'bad_request');
  });

  it('408 with a JSON body when the headers never finish', async () => {
    const a = await rawExchange(port, { pieces: ['GET /api/actions HTTP/1.1\r\nHost: x\r\n'], responses: 1, timeoutMs: 5000 });
    expectJsonError(a, 408, 'request_timeout');
  });

  it('408 with a JSON body when the body never finishes', async () => {
    const a = await rawExchange(port, {
      pieces: [head('POST', '/api/authenticate', { 'Content-Type': 'application/json', 'Content-Length': 100 }), '{"email":'],
      responses: 1,
      timeoutMs: 5000,
    });
    expectJsonError(a, 408, 'request_timeout');
  });
});
