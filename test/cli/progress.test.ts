import { describe, expect, it } from 'vitest';
import type { ChangeOutcome } from '../../src/apply/types.js';
import { createProgress } from '../../src/cli/progress.js';

function fakeStream(columns = 80) {
  const chunks: string[] = [];
  return { chunks, columns, write(s: string) { chunks.push(s); return true; }, text: () => chunks.join('') };
}

const ok = (address: string): ChangeOutcome => ({ address, op: 'create', type: 'action', status: 'applied', id: 'id1' });
const bad = (address: string): ChangeOutcome => ({ address, op: 'update', type: 'action', status: 'failed', id: 'id2', error: { message: 'boom', status: 500 } });

describe('progress in CI (not a TTY)', () => {
  it('writes one plain line per finished change, no \\r and no ANSI', () => {
    const stream = fakeStream();
    const p = createProgress({ stream, tty: false, color: true, total: 2, label: 'applying' });
    p.start('action["A"]', 'create');
    expect(stream.text()).toBe('');
    p.done(ok('action["A"]'));
    p.start('action["B"]', 'update');
    p.done(bad('action["B"]'));
    p.finish();
    expect(stream.text()).toBe('✓ create action["A"] (id id1)\n✗ update action["B"]: HTTP 500: boom\n');
  });
});

describe('progress on a TTY', () => {
  it('redraws one line with a counter and the current resource, and clears it at the end', () => {
    const stream = fakeStream();
    let t = 0;
    const p = createProgress({ stream, tty: true, color: false, total: 40, label: 'applying', now: () => t, intervalMs: 100 });
    p.start('action["X"]', 'create');
    expect(stream.chunks.at(-1)).toBe('\r\x1b[K[0/40] creating action["X"]…');
    t = 500;
    p.done(ok('action["X"]'));
    expect(stream.chunks.at(-1)).toBe('\r\x1b[K[1/40] applying…');
    p.finish();
    expect(stream.chunks.at(-1)).toBe('\r\x1b[K');
    expect(stream.text()).not.toContain('\n');
  });

  it('throttles redraws between ticks of the injected clock', () => {
    const stream = fakeStream();
    let t = 0;
    const p = createProgress({ stream, tty: true, color: false, total: 3, label: 'applying', now: () => t, intervalMs: 100 });
    p.start('action["A"]', 'create');
    p.start('action["B"]', 'create');
    p.start('action["C"]', 'create');
    expect(stream.chunks).toHaveLength(1);
    t = 100;
    p.done(ok('action["A"]'));
    expect(stream.chunks).toHaveLength(2);
    expect(stream.chunks.at(-1)).toBe('\r\x1b[K[1/3] creating action["C"]…');
  });

  it('prints a failure on its own line above the progress line so it stays visible', () => {
    const stream = fakeStream();
    const p = createProgress({ stream, tty: true, color: false, total: 2, label: 'applying', now: () => 0 });
    p.start('action["B"]', 'update');
    p.done(bad('action["B"]'));
    expect(stream.chunks.slice(-2)).toEqual(['\r\x1b[K✗ update action["B"]: HTTP 500: boom\n', '\r\x1b[K[1/2] applying…']);
  });

  it('never draws a line wider than the terminal', () => {
    const stream = fakeStream(30);
    const p = createProgress({ stream, tty: true, color: false, total: 1, label: 'applying' });
    p.start(`action["${'x'.repeat(100)}"]`, 'create');
    const line = stream.chunks.at(-1)!.replace('\r\x1b[K', '');
    expect([...line].length).toBeLessThanOrEqual(29);
    expect(line.endsWith('…')).toBe(true);
  });
});
