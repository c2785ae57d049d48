// connect(): where the URL and credentials come from; checkOrganization(): the guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addConnectionOptions, checkOrganization, clientLimits, connect } from '../../src/cli/connect.js';
import { CliError } from '../../src/cli/exit.js';
import type { Io } from '../../src/cli/io.js';

const io = (env: Record<string, string>): Io => ({
  stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env, cwd: process.cwd(),
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ users: [{ email: 'ops@example.com', password: 'pw-123456', organization_id: 1 }] });
});
afterAll(async () => {
  await server?.close();
});

describe('connect', () => {
  it('needs an API URL and says how to give one', () => {
    expect(() => connect({}, io({ MENUCTL_TOKEN: 't' }))).toThrow(/--api-url URL or set MENUCTL_API_URL/);
  });

  it('needs credentials from the environment and names the variables', () => {
    expect(() => connect({ apiUrl: server.url }, io({}))).toThrow(/set MENUCTL_TOKEN .* or MENUCTL_EMAIL and MENUCTL_PASSWORD/);
    expect(() => connect({ apiUrl: server.url }, io({ MENUCTL_EMAIL: 'a@b' }))).toThrow(/MENUCTL_PASSWORD is not/);
  });

  it('rejects a URL that is not http(s)', () => {
    expect(() => connect({}, io({ MENUCTL_API_URL: 'ftp://x', MENUCTL_TOKEN: 't' }))).toThrow(CliError);
    expect(() => connect({}, io({ MENUCTL_API_URL: 'not a url', MENUCTL_TOKEN: 't' }))).toThrow(/is not a URL/);
  });

  it('does not echo credentials from a URL it rejects', () => {
    // A '/' in the password ends the authority early, so this does not parse as a URL.
    expect(() => connect({}, io({ MENUCTL_API_URL: 'http://bob:pa/ss@host', MENUCTL_TOKEN: 't' })))
      .toThrow(/^the API URL "http:\/\/host" is not a URL/);
  });

  it('rejects a ?query or #fragment, which paths would be appended to, without echoing it', () => {
    for (const url of [`${server.url}/?api_key=s3cr3t`, `${server.url}?api_key=s3cr3t`, `${server.url}/#s3cr3t`]) {
      const attempt = () => connect({}, io({ MENUCTL_API_URL: url, MENUCTL_TOKEN: 't' }));
      expect(attempt).toThrow(CliError);
      expect(attempt).toThrow(/the API URL must not have a \?query or #fragment: give the address in front of \/api only \(got http:\/\/127\.0\.0\.1:\d+\/?\?\.\.\.\)/);
      expect(attempt).not.toThrow(/s3cr3t/);
    }
  });

  it('prefers --api-url over MENUCTL_API_URL and works with a token', async () => {
    const c = connect({ apiUrl: server.url }, io({ MENUCTL_API_URL: 'http://127.0.0.1:9', MENUCTL_TOKEN: server.token }));
    try {
      expect(Array.isArray(await c.client.listActions())).toBe(true);
      expect(c.concurrency).toBe(8);
      expect(c.organizationGuard).toBeNull();
    } finally {
      await c.client.close();
    }
  });

  it('--concurrency auto starts the client\'s limiter at the default and lets it grow to 64; a number is fixed', () => {
    expect(clientLimits('auto')).toEqual({ concurrency: 64, startConcurrency: 8 });
    expect(clientLimits(5)).toEqual({ concurrency: 5 });
  });

  it('--concurrency auto: callers may queue up to 64, and requests still go through', async () => {
    const c = connect({ apiUrl: server.url, concurrency: 'auto' }, io({ MENUCTL_TOKEN: server.token }));
    try {
      expect(c.concurrency).toBe(64);
      expect(Array.isArray(await c.client.listActions())).toBe(true);
    } finally {
      await c.client.close();
    }
  });

  it('logs in with MENUCTL_EMAIL and MENUCTL_PASSWORD', async () => {
    const c = connect({ organization: 1, concurrency: 2 }, io({ MENUCTL_API_URL: server.url, MENUCTL_EMAIL: 'ops@example.com', MENUCTL_PASSWORD: 'pw-123456' }));
    try {
      expect(await c.client.organizationId()).toBe(1);
      expect(c).toMatchObject({ organizationGuard: 1, concurrency: 2 });
    } finally {
      await c.client.close();
    }
  });

  it('reads the guard from MENUCTL_ORGANIZATION_ID', async () => {
    const c = connect({}, io({ MENUCTL_API_URL: server.url, MENUCTL_TOKEN: 't', MENUCTL_ORGANIZATION_ID: '62' }));
    expect(c.organizationGuard).toBe(62);
    await c.client.close();
    expect(() => connect({}, io({ MENUCTL_API_URL: server.url, MENUCTL_TOKEN: 't', MENUCTL_ORGANIZATION_ID: 'x' }))).toThrow(/positive integer/);
  });
});

describe('connection options', () => {
  const parse = (args: string[]) => {
    const cmd = addConnectionOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => {} }));
    cmd.parse(args, { from: 'user' });
    return cmd.opts();
  };
  it('parses --api-url, --organization and --concurrency (default 8)', () => {
    expect(parse([])).toEqual({ concurrency: 8 });
    expect(parse(['--api-url', 'http://h', '--organization', '62', '--concurrency', '16'])).toEqual({ apiUrl: 'http://h', organization: 62, concurrency: 16 });
    expect(parse(['--concurrency', 'auto'])).toEqual({ concurrency: 'auto' });
  });
  it.each(['0', '65', '2.5', 'many'])('refuses --concurrency %s', (n) => {
    expect(() => parse(['--concurrency', n])).toThrow(/1 to 64/);
  });
});

describe('checkOrganization', () => {
  const client = () => connect({ apiUrl: server.url }, io({ MENUCTL_TOKEN: server.token })).client;

  it('passes when guard and token agree, and without a guard', async () => {
    const c = client();
    try {
      expect(await checkOrganization(c, 1)).toBe(1);
      expect(await checkOrganization(c, null, 1)).toBe(1);
      expect(await checkOrganization(c, null)).toBe(1);
    } finally {
      await c.close();
    }
  });

  it('refuses a token for another organization, naming both', async () => {
    const c = client();
    try {
      await expect(checkOrganization(c, 62)).rejects.toThrow(/credentials act for organization 1, but --organization\/MENUCTL_ORGANIZATION_ID is 62/);
      await expect(checkOrganization(c, null, 62)).rejects.toThrow(/config's organization_id is 62/);
    } finally {
      await c.close();
    }
  });

  it('refuses when the flag and the config disagree', async () => {
    const c = client();
    try {
      await expect(checkOrganization(c, 1, 2)).rejects.toThrow(/config says organization_id: 2 but .* says 1/);
    } finally {
      await c.close();
    }
  });
});
