// Property-based fuzz of the reference server over real sockets (issue 10, "Also"): random
// methods, paths, headers, bodies and framings on every route. Whatever comes in, the answer
// is a JSON 4xx (or a 2xx the API documents), never a 5xx, a crash or a hang: every exchange
// is bounded by a timeout, and the server must still answer afterwards.
//
// CI runs a fixed seed and a modest number of runs. A longer local run:
//   MENUCTL_FUZZ_RUNS=5000 MENUCTL_FUZZ_SEED=$RANDOM npx vitest run test/server/fuzz.test.ts
// (a failure prints the seed and the shrunk request that broke the invariant).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client, parserBody } from './http.js';
import { rawExchange, type RawAnswer } from './raw.js';

const RUNS = Number(process.env.MENUCTL_FUZZ_RUNS ?? 120);
const SEED = Number(process.env.MENUCTL_FUZZ_SEED ?? 20261123);
/** The server's own limit for a request to arrive whole (a lying Content-Length waits for it). */
const REQUEST_TIMEOUT_MS = 300;
/** Longer than any answer may take: past it, the exchange counts as a hang. */
const HANG_MS = 4_000;

let s: TestServer;
let port: number;
const ids = { action: '', parser: '', app: '' };
const tokens: Record<string, string | null> = {};

beforeAll(async () => {
  s = await startTestServer({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
  port = Number(new URL(s.url).port);
  const api = client(s);
  ids.action = (await api('POST', '/api/actions', actionBody({ name: 'Fuzz target' }))).body.data.id;
  ids.parser = (await api('POST', '/api/parsers', parserBody(ids.action))).body.data.id;
  ids.app = (await api('POST', '/api/apps', { app: { name: 'Fuzz app', package_name: 'com.example.fuzz' } })).body.data.id;
  Object.assign(tokens, {
    none: null,
    valid: s.token,
    bearer: `Bearer ${s.token}`,
    other: await s.mintToken(2),
    expired: await s.mintToken(1, '-1h'),
    tampered: `${s.token.slice(0, -4)}AAAA`,
    junk: 'x.y.z',
  });
}, 30_000);
afterAll(() => s.close());

// ---- generators ------------------------------------------------------------------------------

const ROUTES = [
  '/api/actions', '/api/actions/{action}', '/api/actions/{action}/parsers', '/api/actions/{action}/restore',
  '/api/parsers', '/api/parsers/{parser}', '/api/parsers/{parser}/restore',
  '/api/apps', '/api/apps/{app}', '/api/apps/{app}/restore',
  '/api/world_operators', '/api/authenticate',
];

const idLike = fc.oneof(
  fc.constantFrom('{real}', '0', '-1', '999999999999999999999', '%ZZ', '%00', '..', '%2e%2e', 'a%2Fb', '🙂', 'x'.repeat(3000)),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const path = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...ROUTES), idLike).map(([r, id]) =>
    r.replace(/\{(\w+)\}/, (_, kind: keyof typeof ids) => (id === '{real}' ? ids[kind] : id))) },
  { weight: 1, arbitrary: fc.webPath() },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((p) => `/${p}`) },
);

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?archived=true', '?archived=false', '?archived=maybe', '?country=ke', '?country=%FF', '?archived'),
  fc.webQueryParameters().map((q) => `?${q}`),
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'get', 'BREW') },
);

const scalar = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.string({ unit: 'binary' }));
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 4 }));

/** Bodies shaped like the API's, with any value in any field. */
const shaped = fc.oneof(
  fc.record({
    name: value, root_code: value, transport_type: fc.oneof(fc.constantFrom('ussd', 'stk', 'push'), value),
    world_operator_ids: fc.oneof(fc.constant(['2172']), value), custom_steps_attributes: fc.oneof(fc.constant({}), value),
  }, { requiredKeys: [] }).map((a) => ({ custom_action: a })),
  fc.record({
    action_id: fc.oneof(fc.constant('{real}'), value), status: fc.oneof(fc.constantFrom('succeeded', 'failed'), value),
    regex: value, category: value, user_message: value, target_type: value, sender: value,
  }, { requiredKeys: [] }).map((p) => ({ parser: p })),
  fc.record({ name: value, package_name: fc.oneof(fc.constant('com.example.f'), value), webhook_url: value }, { requiredKeys: [] })
    .map((a) => ({ app: a })),
  fc.record({ email: value, password: value }, { requiredKeys: [] }),
);

const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 4, arbitrary: shaped.map((b) => Buffer.from(JSON.stringify(b).replace('"{real}"', JSON.stringify(ids.action)))) },
  { weight: 2, arbitrary: fc.json().map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: fc.string().map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.nat({ max: 5000 }).map((d) => Buffer.from('['.repeat(d) + ']'.repeat(d))) },
);

const contentType = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', '');

const extraHeaders = fc.array(fc.tuple(
  fc.oneof(fc.constantFrom('Expect', 'Connection', 'Upgrade', 'Transfer-Encoding', 'Content-Length', 'Host', 'Authorization', 'Accept'),
    fc.stringMatching(/^x-[a-z0-9-]{1,12}$/)),
  fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('100-continue', 'close', 'upgrade', 'websocket', 'chunked', '0', '-1', 'gzip')),
), { maxLength: 3 });

type Framing = 'length' | 'chunked' | 'none' | 'lying-short' | 'lying-long' | 'both' | 'bad-chunk';
const framing = fc.constantFrom<Framing>('length', 'length', 'chunked', 'none', 'lying-short', 'lying-long', 'both', 'bad-chunk');

interface Req {
  method: string; target: string; auth: string; contentType: string | undefined;
  headers: [string, string][]; body: Buffer; framing: Framing; pieces: number;
}

const request = fc.record({
  method, target: fc.tuple(path, query).map(([p, q]) => p + q), auth: fc.constantFrom(...['none', 'valid', 'bearer', 'other', 'expired', 'tampered', 'junk']),
  contentType, headers: extraHeaders, body, framing, pieces: fc.integer({ min: 1, max: 3 }),
});

/** The bytes of one request, framed as asked (honestly or not), cut into `pieces` writes. */
function serialize(r: Req): Buffer[] {
  const lines = [`${r.method} ${r.target} HTTP/1.1`, 'Host: localhost'];
  const token = tokens[r.auth];
  if (token) lines.push(`Authorization: ${token}`);
  if (r.contentType !== undefined) lines.push(`Content-Type: ${r.contentType}`);
  for (const [k, v] of r.headers) lines.push(`${k}: ${v}`);
  let payload = r.body;
  switch (r.framing) {
    case 'length': lines.push(`Content-Length: ${payload.length}`); break;
    case 'lying-short': lines.push(`Content-Length: ${Math.floor(payload.length / 2)}`); break;
    case 'lying-long': lines.push(`Content-Length: ${payload.length + 10}`); break;
    case 'both': lines.push(`Content-Length: ${payload.length}`, 'Transfer-Encoding: chunked'); break;
    case 'chunked':
    case 'bad-chunk':
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([
        Buffer.from(`${(r.framing === 'bad-chunk' ? payload.length + 3 : payload.length).toString(16)}\r\n`), payload,
        Buffer.from(payload.length > 0 ? '\r\n0\r\n\r\n' : '\r\n'),
      ]);
      break;
    case 'none': payload = Buffer.alloc(0); break;
  }
  const all = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
  const cuts = Array.from({ length: r.pieces - 1 }, (_, i) => Math.floor((all.length * (i + 1)) / r.pieces));
  return [0, ...cuts, all.length].slice(1).map((end, i, ends) => all.subarray(i === 0 ? 0 : ends[i - 1], end));
}

/** The invariant: a JSON 4xx or a 2xx, never a 5xx, never silence. */
function problem(a: RawAnswer, head: boolean): string | null {
  if (a.status === null) return a.ended === 'open' ? 'no answer before the hang timeout' : `connection ${a.ended} without an answer`;
  if (a.status >= 500) return `status ${a.status}: ${a.body}`;
  if (a.status < 200 || (a.status >= 300 && a.status < 400)) return `status ${a.status}`;
  if (head) return null;
  let json: { errors?: Array<{ status?: string; code?: string; detail?: string }> };
  try {
    json = JSON.parse(a.body);
  } catch {
    return `status ${a.status} with a body that is not JSON: ${JSON.stringify(a.body.slice(0, 120))}`;
  }
  if (a.status >= 400) {
    const e = json.errors?.[0];
    if (!e || e.status !== String(a.status) || typeof e.code !== 'string' || typeof e.detail !== 'string') {
      return `status ${a.status} without the JSON error body: ${a.body.slice(0, 200)}`;
    }
  }
  return null;
}

async function stillServing(): Promise<void> {
  const r = await fetch(`${s.url}/api/actions/${ids.action}`, { headers: { Authorization: s.token } });
  expect(r.status).toBe(200);
}

describe('fuzz: whatever comes in, a JSON 4xx or a documented 2xx', () => {
  it(`random requests on every route (${RUNS} runs, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const pieces = serialize(r).flatMap((p, i) => (i === 0 ? [p] : [5, p]));
        const a = await rawExchange(port, { pieces, responses: 1, timeoutMs: HANG_MS });
        const why = problem(a, r.method === 'HEAD');
        if (why !== null) throw new Error(`${why}\nrequest: ${JSON.stringify({ ...r, body: r.body.toString('latin1').slice(0, 300) })}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    await stillServing();
  }, 120_000);

  it(`random bytes on the wire (${Math.ceil(RUNS / 3)} runs, seed ${SEED})`, async () => {
    const wire = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
      fc.string({ minLength: 1, maxLength: 200 }).map((t) => Buffer.from(`${t}\r\n\r\n`)),
      fc.tuple(method, fc.string({ maxLength: 40 }), fc.string({ maxLength: 60 }))
        .map(([m, t, h]) => Buffer.from(`${m} ${t} HTTP/1.1\r\n${h}\r\n\r\n`)),
    );
    await fc.assert(
      fc.asyncProperty(wire, async (bytes) => {
        const a = await rawExchange(port, { pieces: [bytes], responses: 1, timeoutMs: HANG_MS });
        const why = problem(a, /^HEAD /.test(bytes.toString('latin1')));
        if (why !== null) throw new Error(`${why}\nbytes: ${JSON.stringify(bytes.toString('latin1'))}`);
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: SEED, endOnFailure: true },
    );
    await stillServing();
  }, 120_000);
});
