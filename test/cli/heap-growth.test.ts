// A command that runs once fixes V8's heap growth at 1.5x what its last full collection kept
// (src/cli/heap-growth.ts); serve keeps V8's own, and so does a user's own --heap-growing-percent.
// V8 prints the factor of every limit it sets under --trace-gc-verbose, and --gc-global makes every
// collection a full one, so a short run shows the factor it ran with.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, shouldTightenHeap } from '../../src/cli/heap-growth.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin', 'menuctl.js');
const TRACE = ['--trace-gc-verbose', '--gc-global'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'menuctl-heap-'));
  writeFileSync(join(dir, 'menuctl.yaml'), 'version: 1\nactions:\n  - name: Balance\n    root_code: "*144#"\n    transport_type: ussd\n    operators: [2172]\n    steps: []\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The factors of the old generation's limits V8 set during a run, in order. */
function factors(trace: string): number[] {
  return [...trace.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g)].map((m) => Number(m[1]));
}

/** Runs the bin under node flags until it exits. */
function trace(nodeFlags: string[], args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/**
 * Starts serve under node flags, sends it `requests` requests once it listens, stops it, and gives
 * its output from the listening line on (V8's trace and that line share stdout, in order).
 */
async function traceServe(nodeFlags: string[], requests: number): Promise<string> {
  const child = spawn(process.execPath, [...nodeFlags, BIN, 'serve', '--port', '0', '--data', ':memory:', '--jwt-secret', 'x'.repeat(32), '--no-access-log'], {
    cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  const exited = new Promise((r) => child.on('exit', r));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`serve exited before listening:\n${out}`)));
    });
    for (let i = 0; i < requests; i++) await (await fetch(`${url}/api/actions`)).arrayBuffer();
  } finally {
    // Whatever happened, no server is left behind.
    child.kill('SIGKILL');
    await exited;
  }
  return out.slice(out.indexOf('listening on'));
}

describe('the heap growth factor', () => {
  it('a run-once command grows the heap 1.5x past its live size, from its first full collection after start', async () => {
    const r = await trace(TRACE, ['validate']);
    expect(r.code).toBe(0);
    const seen = factors(r.out);
    expect(seen.length).toBeGreaterThan(0);
    // Collections before main.ts runs (Node's own start) keep V8's factor; every one after is 1.5.
    expect(seen.at(-1)).toBe(1 + HEAP_GROWING_PERCENT / 100);
  });

  it("keeps the user's own --heap-growing-percent", async () => {
    const r = await trace([...TRACE, '--heap-growing-percent=80'], ['validate']);
    expect(r.code).toBe(0);
    const seen = factors(r.out);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([1.8]));
  });

  it("serve keeps V8's own factor", async () => {
    // A small new space and --gc-global: the requests' garbage makes full collections after start.
    const after = await traceServe([...TRACE, '--max-semi-space-size=1'], 300);
    const seen = factors(after);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    // V8's own factor moves with its measured speeds (1.1 to 4, printed to one decimal), so one
    // limit may happen to print 1.5; every one of them only when the factor is fixed.
    expect(seen.every((f) => f === 1 + HEAP_GROWING_PERCENT / 100)).toBe(false);
  });

  it('decides by command and by the flags node was started with', () => {
    expect(shouldTightenHeap('plan', [])).toBe(true);
    expect(shouldTightenHeap(undefined, [])).toBe(true);
    expect(shouldTightenHeap('serve', [])).toBe(false);
    expect(shouldTightenHeap('demo', [])).toBe(false);
    expect(shouldTightenHeap('analyze', ['--heap-growing-percent=20'])).toBe(false);
    expect(shouldTightenHeap('analyze', ['--heap_growing_percent', '20'])).toBe(false);
    expect(shouldTightenHeap('analyze', ['--max-old-space-size=1536'])).toBe(true);
  });
});
