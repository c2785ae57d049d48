// `menuctl operators`, bundled and live, through the whole CLI in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('menuctl operators', () => {
  it('lists the bundled catalog when no API is configured, and says so', async () => {
    const r = await runCli(['operators', '--country', 'KE']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# world operators from the bundled catalog/);
    expect(lines[1]).toMatch(/^ID\s+NAME\s+COUNTRY\s+NETWORK CODES$/);
    expect(lines.slice(2, -1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['2173', 'Airtel/Zain/Celtel Ltd.', 'KE', '63903'],
      ['2171', 'Orange', 'KE', '63907'],
      ['2172', 'Safaricom Ltd.', 'KE', '63902'],
    ]);
    expect(lines.at(-1)).toBe('3 operator(s)');
  });

  it('quotes names with trailing spaces so the quirk is visible', async () => {
    const r = await runCli(['operators', '--country', 'eg']);
    expect(r.stdout).toContain('"Vodafone/Mirsfone "');
  });

  it('reads the live list from the API without a token (public endpoint)', async () => {
    server.resetStats();
    const r = await runCli(['operators', '--country', 'ke', '--format', 'json'], { env: { MENUCTL_API_URL: server.url } });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { source: string; from: string; operators: { id: number }[] };
    expect(out.source).toBe('api');
    expect(out.from).toBe(server.url);
    expect(out.operators.map((o) => o.id)).toEqual([2173, 2171, 2172]);
    expect(server.stats().byRoute['GET /api/world_operators']).toBe(1);
  });

  it('names the API in the text header when --api-url is given', async () => {
    const r = await runCli(['operators', '--api-url', server.url]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`# world operators from the API at ${server.url} (GET /api/world_operators)`);
  });

  it('never prints credentials embedded in the API URL, in text or JSON', async () => {
    const withCredentials = server.url.replace('http://', 'http://bob:pw123@');
    const text = await runCli(['operators', '--country', 'ke'], { env: { MENUCTL_API_URL: withCredentials } });
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`# world operators from the API at ${server.url} (GET /api/world_operators)`);
    const json = await runCli(['operators', '--country', 'ke', '--format', 'json', '--api-url', withCredentials]);
    expect(JSON.parse(json.stdout).from).toBe(server.url);
    for (const r of [text, json]) {
      expect(r.stdout + r.stderr).not.toMatch(/bob|pw123/);
    }
  });

  it('refuses a country that is not a two-letter code', async () => {
    const r = await runCli(['operators', '--country', 'Kenya']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/two-letter country code/);
  });

  it('reports an unreachable API as one clean error', async () => {
    const r = await runCli(['operators', '--api-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: GET /api/world_operators: no answer: connection refused by http://127.0.0.1:9 (is the API running at that URL?)\n');
  });
});
