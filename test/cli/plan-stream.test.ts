// A big plan goes out in pieces of whole lines as it is rendered, never as one string (issue 28
// item 9: creating 100,000 actions x 5 is ~150 MB of text; issue 36 item 9: and ~0.7 GB of JSON,
// more than a string can hold), and reads exactly as the whole plan rendered at once. The saved
// file is read back in pieces too, and carried out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { planOfDocument, serializePlan } from '../../src/plan/plan-file.js';
import { renderPlanText } from '../../src/report/plan-text.js';
import type { Plan } from '../../src/plan/types.js';
import { runCli } from '../helpers/run-cli.js';
import { manyActionsYaml } from '../helpers/many-actions.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** What the atomic writer was given for each file: one string, or pieces. */
const given = vi.hoisted(() => new Map<string, 'string' | 'pieces'>());
vi.mock('../../src/fs/atomic-write.js', async (original) => {
  const real = await original<typeof import('../../src/fs/atomic-write.js')>();
  return {
    ...real,
    writeFileAtomic: (path: string, content: string | Iterable<string>, options?: Parameters<typeof real.writeFileAtomic>[2]) => {
      given.set(path, typeof content === 'string' ? 'string' : 'pieces');
      return real.writeFileAtomic(path, content, options);
    },
  };
});

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'menuctl-plan-stream-'));
  writeFileSync(join(dir, 'menuctl.yaml'), manyActionsYaml(400));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An in-process run whose stdout keeps each write apart. */
async function runCapturing(argv: string[], token = server.token): Promise<{ code: number; writes: string[]; stderr: string }> {
  const writes: string[] = [];
  const err: string[] = [];
  const stdout = new Writable({ write(chunk: Buffer, _enc, done) { writes.push(chunk.toString('utf8')); done(); } });
  const io: Io = {
    stdout: Object.assign(stdout, { isTTY: false, columns: 100 }),
    stderr: Object.assign(new Writable({ write(c: Buffer, _e, done) { err.push(c.toString('utf8')); done(); } }), { isTTY: false }),
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: envFor(token),
    cwd: dir,
  };
  const code = await run(argv, io);
  return { code, writes, stderr: err.join('') };
}

const envFor = (token: string) => ({ PATH: process.env.PATH, NO_COLOR: '1', MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token });

describe('plan --format text', () => {
  it('writes a big plan in several writes of whole lines, together the text rendered at once', async () => {
    const { code, writes } = await runCapturing(['plan']);
    expect(code).toBe(0);
    const json = await runCli(['plan', '--format', 'json'], { cwd: dir, env: envFor(server.token) });
    const plan = JSON.parse(json.stdout) as Plan;
    expect(plan.changes).toHaveLength(800);
    expect(writes.length).toBeGreaterThan(1);
    for (const w of writes) expect(w.endsWith('\n')).toBe(true);
    expect(writes.join('')).toBe(renderPlanText(plan, { color: false, width: 100 }));
  });
});

describe('plan --format json and --out FILE', () => {
  it('prints the plan in several writes of whole lines and gives the atomic writer the same bytes in pieces', async () => {
    const file = join(dir, 'plan.json');
    const { code, writes, stderr } = await runCapturing(['plan', '--format', 'json', '--out', file]);
    expect(code, stderr).toBe(0);
    expect(given.get(file)).toBe('pieces');
    expect(writes.length).toBeGreaterThan(1);
    for (const w of writes) expect(w.endsWith('\n')).toBe(true);
    const printed = writes.join('');
    expect(readFileSync(file, 'utf8')).toBe(printed);
    // The bytes are what the plan they hold renders as at once.
    const plan = planOfDocument(JSON.parse(printed));
    expect(plan.changes).toHaveLength(800);
    expect(serializePlan(plan)).toBe(printed);
  });
});

describe('apply --plan FILE of many changes', () => {
  it('reads the file back, shows the whole plan in pieces, and carries it out exactly', async () => {
    const token = await server.mintToken(2);
    const file = join(dir, 'plan-org2.json');
    expect((await runCapturing(['plan', '--out', file], token)).code).toBe(0);
    const plan = planOfDocument(JSON.parse(readFileSync(file, 'utf8')));

    // No terminal and no --yes: shown, then refused at the question.
    const asked = await runCapturing(['apply', '--plan', file], token);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('without confirmation');
    expect(asked.writes.length).toBeGreaterThan(1);
    expect(asked.writes.join('')).toBe(renderPlanText(plan, { color: false, width: 100 }));

    const applied = await runCli(['apply', '--plan', file, '--yes', 'menuctl.yaml'], { cwd: dir, env: envFor(token) });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 800 applied');
    const again = await runCli(['plan', '--detailed-exitcode'], { cwd: dir, env: envFor(token) });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes');
  }, 120_000);
});
