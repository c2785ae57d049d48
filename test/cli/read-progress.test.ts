// Reads show progress (issue 26 item 4): on a terminal a line redrawn in place and cleared at the
// end; in a log, a plain line every few seconds while a read lasts, and nothing for a short one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProgress } from '../../src/cli/progress.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../apply/cli-world.js';

function sink() {
  const out: string[] = [];
  return { out, stream: { write: (s: string) => out.push(s) } };
}

describe('readProgress', () => {
  it('in a log: silent for a read shorter than the interval, then one plain line per interval', () => {
    let t = 3000; // the lists took 3 s: not counted
    const { out, stream } = sink();
    const p = readProgress({ stream, tty: false, everyMs: 5000, now: () => t });
    p.onRead(0, 10);
    t = 7000; p.onRead(4, 10);
    expect(out).toEqual([]);
    t = 8000; p.onRead(5, 10);
    t = 9000; p.onRead(6, 10);
    t = 13_500; p.onRead(9, 10);
    t = 20_000; p.onRead(10, 10); // done: the command's own output follows
    p.finish();
    expect(out).toEqual(["reading the live API: 5/10 actions' parsers (5 s)\n", "reading the live API: 9/10 actions' parsers (11 s)\n"]);
    expect(out.join('')).not.toMatch(/\r|\x1b/);
  });

  it('nothing at all when there is nothing to read', () => {
    let t = 0;
    const { out, stream } = sink();
    for (const tty of [false, true]) {
      const p = readProgress({ stream, tty, now: () => t });
      p.onRead(0, 0);
      t += 60_000;
      p.onRead(0, 0);
      p.finish();
    }
    expect(out).toEqual([]);
  });

  it('on a terminal: redrawn in place, throttled, the last count always drawn, cleared at the end', () => {
    let t = 0;
    const { out, stream } = sink();
    const p = readProgress({ stream, tty: true, intervalMs: 80, now: () => t });
    p.onRead(0, 3);
    t = 10; p.onRead(1, 3);
    t = 20; p.onRead(3, 3);
    p.finish();
    expect(out).toEqual([
      "\r\x1b[Kreading the live API: 0/3 actions' parsers…",
      "\r\x1b[Kreading the live API: 3/3 actions' parsers…",
      '\r\x1b[K',
    ]);
  });
});

describe('plan shows its read on a terminal', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer({ latencyMs: 5 }); });
  afterAll(async () => { await server.close(); });

  it('stderr on a TTY carries the count of actions read, then is cleared; a log stays quiet', async () => {
    const dir = tempDir();
    const actions = Array.from({ length: 6 }, (_, i) => `  - { name: "M${i}", root_code: "*1${i}#", transport_type: ussd, operators: [2172], steps: [{ press: 1 }] }`);
    writeFileSync(join(dir, 'menuctl.yaml'), `version: 1\nactions:\n${actions.join('\n')}\n`);
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token };
    expect((await runCli(['apply', '--yes'], { env, cwd: dir })).code).toBe(0);
    const tty = await runCli(['plan'], { env, cwd: dir, ttys: { stdout: false, stderr: true } });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain("reading the live API: 6/6 actions' parsers…");
    expect(tty.stderr.endsWith('\r\x1b[K')).toBe(true);
    const log = await runCli(['plan'], { env, cwd: dir });
    expect(log.stderr).toBe('');
  });
});
