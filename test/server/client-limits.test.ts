// Issue 28 item 7: one client can neither guess passwords freely (failed logins per address,
// then 429 before the password hash) nor hold so many connections that others are locked out.
// Other clients are reached over other loopback addresses (Linux routes 127.0.0.0/8 to lo).
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../src/cli/serve.js';
import { clientAddress } from '../../src/server/client-address.js';
import { LoginThrottle } from '../../src/server/login-throttle.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EMAIL = 'ops@example.com';
const PASSWORD = 'correct horse battery';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** One request on a fresh connection from `localAddress`. */
function call(s: TestServer, path: string, o: { localAddress?: string; method?: string; body?: unknown } = {}): Promise<Answer> {
  const url = new URL(s.url);
  const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path, method: o.method ?? 'GET', agent: false, localAddress: o.localAddress,
      headers: { Authorization: s.token, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const login = (s: TestServer, password: string, localAddress?: string) =>
  call(s, '/api/authenticate', { method: 'POST', body: { email: EMAIL, password }, localAddress });

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('failed logins per client address', () => {
  it('200 wrong passwords in a row from one client are mostly 429 with Retry-After; another client still logs in', async () => {
    s = await startTestServer({ users: [{ email: EMAIL, password: PASSWORD, organization_id: 1 }] });
    const statuses: number[] = [];
    let throttled: Answer | undefined;
    for (let i = 0; i < 200; i++) {
      const r = await login(s, `guess ${i}`);
      statuses.push(r.status);
      if (r.status === 429) throttled ??= r;
    }
    // The default: a burst of 10 failures per address, refilled at 10 per minute.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(180);
    expect(Number(throttled!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(throttled!.body)).toEqual({ errors: [{ status: '429', code: 'rate_limited', title: expect.any(String), detail: expect.stringMatching(/too many failed logins from this address: retry after \d+ s/) }] });
    // Throttled even with the right password: the address is out of attempts.
    expect((await login(s, PASSWORD)).status).toBe(429);
    const other = await login(s, PASSWORD, '127.0.0.2');
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body).auth_token).toEqual(expect.any(String));
  });

  it('parallel guesses cannot all pass before the first one fails', async () => {
    s = await startTestServer({ users: [{ email: EMAIL, password: PASSWORD, organization_id: 1 }], loginAttempts: 3, loginWindowS: 3600 });
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => login(s!, `guess ${i}`).then((r) => r.status)));
    expect(statuses.filter((x) => x === 401).length).toBe(3);
    expect(statuses.filter((x) => x === 429).length).toBe(9);
  });

  it('successful logins do not use up the budget, and loginAttempts 0 turns it off', async () => {
    s = await startTestServer({ users: [{ email: EMAIL, password: PASSWORD, organization_id: 1 }], loginAttempts: 2 });
    for (let i = 0; i < 5; i++) expect((await login(s, PASSWORD)).status).toBe(200);
    expect((await login(s, 'x')).status).toBe(401);
    expect((await login(s, PASSWORD)).status).toBe(200);
    await s.close();
    s = await startTestServer({ users: [{ email: EMAIL, password: PASSWORD, organization_id: 1 }], loginAttempts: 0 });
    for (let i = 0; i < 15; i++) expect((await login(s, 'x')).status).toBe(401);
  });
});

describe('LoginThrottle', () => {
  it('refills at attempts per window and says how long to wait', () => {
    let now = 0;
    const t = new LoginThrottle({ attempts: 10, windowS: 60 }, () => now);
    for (let i = 0; i < 10; i++) expect(t.begin('a')).toBeNull();
    expect(t.begin('a')).toBe(6);
    expect(t.begin('b')).toBeNull();
    now += 3_000;
    expect(t.begin('a')).toBe(3);
    now += 3_000;
    expect(t.begin('a')).toBeNull();
    expect(t.begin('a')).toBe(6);
  });
});

describe('clientAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:bbbb:cccc:dddd:eeee', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s is counted as %s', (remote, key) => {
    expect(clientAddress(remote)).toBe(key);
  });
});

describe('open connections per client address', () => {
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const sock of sockets.splice(0)) sock.destroy();
  });

  /** An idle connection from 127.0.0.1 that the server has accepted (it stays open). */
  const idle = (url: URL) => new Promise<Socket>((resolve, reject) => {
    const sock = connect({ host: url.hostname, port: Number(url.port) }, () => resolve(sock));
    sock.on('error', reject);
    sock.resume(); // so a close by the server is seen
    sockets.push(sock);
  });

  it('past the cap a client gets its new connections closed, another address is served, and a freed slot is usable again', async () => {
    s = await startTestServer({ maxConnectionsPerClient: 20 });
    const url = new URL(s.url);
    for (let i = 0; i < 20; i++) await idle(url);
    // The cap is reached: the next connection from 127.0.0.1 is closed without an answer.
    await expect(call(s, '/api/actions')).rejects.toThrow(/socket hang up|ECONNRESET/);
    // Another client is served meanwhile.
    expect((await call(s, '/api/actions', { localAddress: '127.0.0.2' })).status).toBe(200);
    // One idle connection goes away: the client may open one again.
    const gone = sockets.pop()!;
    await new Promise<void>((r) => { gone.once('close', () => r()); gone.destroy(); });
    let served: Answer | undefined;
    // The server sees the close on its next turn: ask until it has.
    for (let i = 0; i < 50 && !served; i++) {
      served = await call(s, '/api/actions').catch(() => undefined);
      if (!served) await new Promise((r) => setTimeout(r, 20));
    }
    expect(served?.status).toBe(200);
  });

  it('1,200 idle connections from one client do not lock out another (default cap)', async () => {
    s = await startTestServer();
    const url = new URL(s.url);
    const opened = await Promise.allSettled(Array.from({ length: 1200 }, () => idle(url)));
    expect(opened.some((o) => o.status === 'fulfilled')).toBe(true);
    expect((await call(s, '/api/actions', { localAddress: '127.0.0.2' })).status).toBe(200);
    // The client holds its 256 and no more: a new connection from it is closed unanswered. (How
    // many of the 1,200 look open on the client side says little: with the listen backlog full,
    // the kernel completes handshakes by SYN cookie that the server never sees.)
    await expect(call(s, '/api/actions')).rejects.toThrow(/socket hang up|ECONNRESET/);
  }, 30_000);
});

describe('menuctl serve flags for the limits', () => {
  const ctx = { io: { cwd: process.cwd(), env: {} } } as unknown as Parameters<typeof parseServeOptions>[1];
  const flags = (extra: Record<string, string>) =>
    ({ host: '127.0.0.1', port: '0', data: ':memory:', jwtSecret: 's', user: [], accessLog: false, ...extra }) as Parameters<typeof parseServeOptions>[0];

  it('--login-attempts, --login-window and --connections-per-client reach the server options', () => {
    const o = parseServeOptions(flags({ loginAttempts: '0', loginWindow: '300', connectionsPerClient: '32' }), ctx);
    expect(o).toMatchObject({ loginAttempts: 0, loginWindowS: 300, maxConnectionsPerClient: 32 });
    expect(parseServeOptions(flags({}), ctx)).toMatchObject({ loginAttempts: undefined, loginWindowS: undefined, maxConnectionsPerClient: undefined });
  });

  it('a bad value is one error naming the flag', () => {
    expect(() => parseServeOptions(flags({ connectionsPerClient: '0' }), ctx)).toThrow('--connections-per-client must be a whole number from 1 to 100000 (got "0")');
    expect(() => parseServeOptions(flags({ loginWindow: 'soon' }), ctx)).toThrow(/--login-window must be a whole number/);
  });
});
