// issue 28 item 4: text an API sends back reaches the terminal inert. A stand-in in front of the
// reference server answers writes (apply) or the first read (plan) with an error whose code and
// detail carry terminal escapes, line breaks and bidi overrides; whatever menuctl prints, on
// stdout or stderr, has no control character but its own line breaks, and no line the API drew.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startStandIn, type Decision, type StandIn } from '../helpers/stand-in.js';
import { configYaml, tempDir } from '../apply/cli-world.js';
import { inert } from '../../src/text/inert.js';
import { createClient } from '../../src/api/client.js';
import { OPERATOR_ID } from '../apply/world.js';

const HOSTILE: [string, string][] = [
  ['a window-title escape', '\x1b]0;pwned\x07'],
  ['clear screen and home', '\x1b[2J\x1b[H'],
  ['an 8-bit CSI', '\x9b31mred'],
  ['a carriage return over the line', 'harmless\rOK'],
  ['a fake result line', 'x\n✓ create action["x"] (id 1)'],
  ['a CRLF fake summary', 'x\r\nApply complete: 1 applied, 0 failed, 0 skipped.'],
  ['NEL and a line separator', 'a\u0085✓ create b\u2028✓ update c\u2029'],
  ['a bidi override', 'file\u202etxt.exe\u202c and \u2066isolate\u2069'],
  ['backspaces and a bell', 'failed\b\b\b\b\b\bok\x07'],
  ['a zero-width space and a lone surrogate', 'a\u200bb\ud800'],
];

/** What a terminal acts on, but for the line feed menuctl's own lines end with. */
const ACTIVE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\p{Cf}\u2028\u2029\p{Cs}]/u;

function errorBody(text: string): unknown {
  return { errors: [{ status: '422', code: `bad${text}`, title: text, detail: text, source: { pointer: `/action/name${text}` } }] };
}

let server: TestServer;
let org = 900;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });

async function withStandIn<T>(decide: (method: string, path: string) => Decision, run: (api: StandIn) => Promise<T>): Promise<T> {
  const api = await startStandIn({ upstream: server.url, decide: (req) => decide(req.method ?? '', req.url ?? '') });
  try {
    return await run(api);
  } finally {
    await api.close();
  }
}

function expectInert(out: string, text: string): void {
  expect(out).not.toMatch(ACTIVE);
  // No line the API drew: every ✓ and every summary line is menuctl's, and there is none here.
  expect(out).not.toMatch(/^\s*✓/m);
  expect(out).not.toMatch(/^Apply complete/m);
  // The reader still sees what the server said, escaped by the one rule (test/text/inert.test.ts).
  expect(out).toContain(inert(text));
}

describe('an API error carrying terminal control text', () => {
  it.each(HOSTILE)('apply --yes: %s is shown inert', async (_what, text) => {
    const token = await server.mintToken(++org);
    const dir = tempDir();
    writeFileSync(`${dir}/menuctl.yaml`, configYaml([{ name: 'x' }]));
    const r = await withStandIn(
      (method, path) => (method === 'POST' && path === '/api/actions' ? { status: 422, body: errorBody(text) } : 'pass'),
      (api) => runCli(['apply', '--yes', 'menuctl.yaml'], { cwd: dir, env: { MENUCTL_API_URL: api.url, MENUCTL_TOKEN: token } }),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ create action\["x"\]: HTTP 422 /m);
    expectInert(r.stdout + r.stderr, text);
  });

  it.each(HOSTILE)('plan: %s is shown inert', async (_what, text) => {
    const token = await server.mintToken(++org);
    const dir = tempDir();
    writeFileSync(`${dir}/menuctl.yaml`, configYaml([{ name: 'x' }]));
    const r = await withStandIn(
      (method, path) => (method === 'GET' && path.startsWith('/api/actions') ? { status: 403, body: errorBody(text) } : 'pass'),
      (api) => runCli(['plan', 'menuctl.yaml'], { cwd: dir, env: { MENUCTL_API_URL: api.url, MENUCTL_TOKEN: token } }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \/api\/actions: 403 /m);
    expectInert(r.stdout + r.stderr, text);
  });
});

describe('a live resource whose name carries control text and markdown', () => {
  const NAME = 'x\x1b]0;pwned\x07\n✓ create action["y"] @alice </code></summary></details> |a| `b` [c](https://evil.example) \u202eexe.txt';

  async function hostileWorld() {
    const token = await server.mintToken(++org);
    const dir = tempDir();
    writeFileSync(`${dir}/menuctl.yaml`, configYaml([]));
    const client = createClient({ baseUrl: server.url, token });
    await client.createAction({ name: NAME, root_code: '*1#', transport_type: 'ussd', operator_ids: [OPERATOR_ID], steps: [{ kind: 'press', value: '1' }] });
    await client.close();
    return { dir, env: { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token } };
  }

  it.each([
    ['plan --prune', ['plan', '--prune', 'menuctl.yaml']],
    ['drift', ['drift', 'menuctl.yaml']],
  ])('%s as text: the name is inert', async (_what, args) => {
    const w = await hostileWorld();
    const r = await runCli(args, { cwd: w.dir, env: w.env });
    // The address JSON-quotes the name, then the one rule makes the rest inert.
    expectInert(r.stdout + r.stderr, `action[${JSON.stringify(NAME)}]`);
  });

  it.each([
    ['plan --prune', ['plan', '--prune', '--format', 'markdown', 'menuctl.yaml']],
    ['drift', ['drift', '--format', 'markdown', 'menuctl.yaml']],
  ])('%s as markdown: the name cannot break out', async (_what, args) => {
    const w = await hostileWorld();
    const r = await runCli(args, { cwd: w.dir, env: w.env });
    const md = r.stdout;
    expect(md).toContain('x\\u001b]0;pwned\\u0007\\n');
    expect(md).not.toMatch(ACTIVE);
    // A fenced block is literal (no HTML, links or mentions): what markdown reads is outside them.
    const read = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
    // Every tag is menuctl's own: as many closings as openings, none from the name.
    for (const tag of ['details', 'summary', 'code']) {
      expect((read.match(new RegExp(`</${tag}>`, 'g')) ?? []).length).toBe((read.match(new RegExp(`<${tag}>`, 'g')) ?? []).length);
    }
    expect(read).not.toContain('](https://evil.example)');
    expect(read).not.toMatch(/`b`/);
    // GitHub makes no mention inside <code>; outside it, none either.
    expect(read.replace(/<code>[\s\S]*?<\/code>/g, '')).not.toMatch(/@alice/);
  });
});
