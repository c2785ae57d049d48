// First-day connection mistakes (issue 11): each gets a message naming the cause and the fix,
// never a stack trace and never the token. Real reference server; a plain local HTTP server
// for "not the API at all"; a closed port and an unresolvable name for the unreachable cases.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CONFIG = 'test/scenarios/001-create-from-empty/config.yaml';

let api: TestServer;
let notApi: Server;
let notApiUrl: string;
let closedUrl: string;

beforeAll(async () => {
  api = await startTestServer();
  notApi = createServer((_req, res) => { res.writeHead(404, { 'content-type': 'text/html' }); res.end('<h1>Not Found</h1>'); });
  await new Promise<void>((done) => notApi.listen(0, '127.0.0.1', done));
  notApiUrl = `http://127.0.0.1:${(notApi.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((done) => closed.close(() => done()));
});
afterAll(async () => {
  await api.close();
  await new Promise<void>((done) => notApi.close(() => done()));
});

const plan = (env: Record<string, string>) => runCli(['plan', CONFIG], { env });
function clean(r: CliResult): void {
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout + r.stderr).not.toContain(api.token);
}

describe('the token', () => {
  it('with a trailing newline (a pasted CI secret): trimmed, and the plan works', async () => {
    const r = await plan({ MENUCTL_API_URL: api.url, MENUCTL_TOKEN: `${api.token}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    clean(r);
  });

  it('with leading spaces: trimmed too', async () => {
    const r = await plan({ MENUCTL_API_URL: api.url, MENUCTL_TOKEN: `  ${api.token}` });
    expect(r.code, r.stderr).toBe(0);
  });

  it('with a line break inside: refused with the reason, not printed', async () => {
    const broken = `${api.token.slice(0, 20)}\n${api.token.slice(20)}`;
    const r = await plan({ MENUCTL_API_URL: api.url, MENUCTL_TOKEN: broken });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: MENUCTL_TOKEN has a space or line break inside it \(a JWT has none\)/);
    expect(r.stderr).not.toContain(api.token.slice(0, 20));
    clean(r);
  });

  it('"Bearer <jwt>": says to set the JWT alone', async () => {
    const r = await plan({ MENUCTL_API_URL: api.url, MENUCTL_TOKEN: `Bearer ${api.token}` });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MENUCTL_TOKEN starts with "Bearer "');
    clean(r);
  });
});

describe('the URL', () => {
  it('ending in /api: uses the base URL and says so, once', async () => {
    const r = await plan({ MENUCTL_API_URL: `${api.url}/api/`, MENUCTL_TOKEN: api.token });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([
      `menuctl: the API URL ends in /api, which menuctl adds itself; using ${api.url} (drop /api from --api-url or MENUCTL_API_URL to silence this)`,
    ]);
  });

  it('https:// against a plain-HTTP server: try http://', async () => {
    const r = await plan({ MENUCTL_API_URL: api.url.replace('http:', 'https:'), MENUCTL_TOKEN: api.token });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${api.url.replace('http:', 'https:')} speaks plain HTTP, not HTTPS: try ${api.url}`);
    clean(r);
  });

  it('not the API at all (a bare 404): says so and names the URL to check', async () => {
    const r = await plan({ MENUCTL_API_URL: notApiUrl, MENUCTL_TOKEN: api.token });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`this does not look like the Mobile Menu Automation API at ${notApiUrl}`);
    expect(r.stderr).toContain('check --api-url / MENUCTL_API_URL');
    clean(r);
  });

  it('a path below the API\'s base (the reference server answers 404 for it): the same advice', async () => {
    const r = await plan({ MENUCTL_API_URL: `${api.url}/menus`, MENUCTL_TOKEN: api.token });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`this does not look like the Mobile Menu Automation API at ${api.url}/menus`);
  });

  it('connection refused: names the URL', async () => {
    const r = await plan({ MENUCTL_API_URL: closedUrl, MENUCTL_TOKEN: api.token });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`connection refused by ${closedUrl} (is the API running at that URL?)`);
    clean(r);
  });

  it('a name that does not resolve: names the URL', async () => {
    const r = await plan({ MENUCTL_API_URL: 'http://menus.invalid', MENUCTL_TOKEN: api.token });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/(host not found|temporary DNS failure looking up) for http:\/\/menus\.invalid|DNS failure looking up http:\/\/menus\.invalid/);
    clean(r);
  });
});

describe('credentials refused without an explanation from the server', () => {
  it('a bare 401 says the credentials were refused and which variables to check', async () => {
    const bare = createServer((_req, res) => { res.writeHead(401); res.end(); });
    await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      const r = await plan({ MENUCTL_API_URL: url, MENUCTL_TOKEN: api.token });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/401 unauthorized: the API refused the credentials: check MENUCTL_TOKEN \(or MENUCTL_EMAIL and MENUCTL_PASSWORD\): expired, mistyped, or meant for another server than http:\/\/127\.0\.0\.1:\d+\n/);
      clean(r);
    } finally {
      await new Promise<void>((done) => bare.close(() => done()));
    }
  });
});

describe('a long wait the API asks for', () => {
  it('gets one plain line on stderr, and the plan then completes', async () => {
    // A stand-in in front of the reference server: the first list read is told to come back in 5 s.
    let throttled = false;
    const front = createServer((req, res) => {
      if (!throttled && req.url?.startsWith('/api/actions')) {
        throttled = true;
        res.writeHead(429, { 'retry-after': '5', 'content-type': 'application/json' });
        res.end('{"errors":[{"status":"429","code":"rate_limited"}]}');
        return;
      }
      fetch(`${api.url}${req.url}`, { headers: { authorization: req.headers.authorization ?? '', accept: 'application/json' } })
        .then(async (r) => { res.writeHead(r.status, { 'content-type': 'application/json' }); res.end(await r.text()); })
        .catch(() => { res.writeHead(502); res.end(); });
    });
    await new Promise<void>((done) => front.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const r = await plan({ MENUCTL_API_URL: url, MENUCTL_TOKEN: api.token });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^menuctl: GET \/api\/actions: rate limited \(429\); the API asked to wait, retrying in 5 s\n$/);
      clean(r);
    } finally {
      await new Promise<void>((done) => front.close(() => done()));
    }
  }, 20_000);
});

describe('a redirect', () => {
  it('is not followed, and the URL is what to check', async () => {
    const moved = createServer((_req, res) => { res.writeHead(301, { location: 'https://elsewhere.example.com/api/actions' }); res.end(); });
    await new Promise<void>((done) => moved.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(moved.address() as AddressInfo).port}`;
      const r = await plan({ MENUCTL_API_URL: url, MENUCTL_TOKEN: api.token });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/301 redirect: http:\/\/127\.0\.0\.1:\d+ answered with a redirect, which menuctl does not follow .*check --api-url \/ MENUCTL_API_URL/);
      clean(r);
    } finally {
      await new Promise<void>((done) => moved.close(() => done()));
    }
  });
});

describe('network failures name the URL and what to do', () => {
  it.each([
    ['UND_ERR_HEADERS_TIMEOUT', 'timed out waiting for https://api.example.com to answer'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timed out connecting to https://api.example.com'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'the TLS certificate of https://api.example.com is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): set NODE_EXTRA_CA_CERTS'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'the TLS certificate of https://api.example.com is not trusted (ERR_TLS_CERT_ALTNAME_INVALID)'],
  ])('%s', (networkCode, words) => {
    const err = new ApiError({ method: 'GET', path: '/api/actions', status: null, outcome: 'failed', retryable: true, networkCode, baseUrl: 'https://api.example.com' });
    expect(err.message).toContain(words);
  });
});
