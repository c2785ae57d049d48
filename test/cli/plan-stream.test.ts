// A big plan's text goes out in pieces of whole lines as it is rendered, never as one string
// (issue 28 item 9: creating 100,000 actions x 5 is ~150 MB of text), and reads exactly as the
// whole plan rendered at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { renderPlanText } from '../../src/report/plan-text.js';
import type { Plan } from '../../src/plan/types.js';
import { runCli } from '../helpers/run-cli.js';
import { manyActionsYaml } from '../helpers/many-actions.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

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

describe('plan --format text', () => {
  it('writes a big plan in several writes of whole lines, together the text rendered at once', async () => {
    const writes: string[] = [];
    const stdout = new Writable({ write(chunk: Buffer, _enc, done) { writes.push(chunk.toString('utf8')); done(); } });
    const io: Io = {
      stdout: Object.assign(stdout, { isTTY: false, columns: 100 }),
      stderr: Object.assign(new Writable({ write(_c, _e, done) { done(); } }), { isTTY: false }),
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
      env: { PATH: process.env.PATH, NO_COLOR: '1', MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token },
      cwd: dir,
    };
    expect(await run(['plan'], io)).toBe(0);
    const json = await runCli(['plan', '--format', 'json'], { cwd: dir, env: io.env as Record<string, string> });
    const plan = JSON.parse(json.stdout) as Plan;
    expect(plan.changes).toHaveLength(800);
    expect(writes.length).toBeGreaterThan(1);
    for (const w of writes) expect(w.endsWith('\n')).toBe(true);
    expect(writes.join('')).toBe(renderPlanText(plan, { color: false, width: 100 }));
  });
});
