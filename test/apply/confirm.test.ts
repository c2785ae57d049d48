// The confirmation question of `menuctl apply` (src/cli/confirm.ts), with a stdin we control.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askYes } from '../../src/cli/confirm.js';
import type { Io } from '../../src/cli/io.js';

const setup = () => {
  const stdin = new PassThrough();
  const out = new PassThrough();
  return { stdin, out, io: { stdin } as unknown as Io };
};

describe('askYes', () => {
  it('answers no at once, without asking, when the signal was aborted before', async () => {
    const { io, out } = setup();
    const controller = new AbortController();
    controller.abort();
    // No input ever arrives: before the fix this never settled.
    const answer = await Promise.race([askYes(io, 'Apply? ', out, controller.signal), new Promise((r) => setImmediate(() => r('pending')))]);
    expect(answer).toBe(false);
    expect(out.read()).toBeNull();
  });

  it('accepts only the exact answer yes', async () => {
    const a = setup();
    const yes = askYes(a.io, 'Apply? ', a.out);
    a.stdin.write('yes\n');
    expect(await yes).toBe(true);
    const b = setup();
    const y = askYes(b.io, 'Apply? ', b.out);
    b.stdin.write('y\n');
    expect(await y).toBe(false);
  });

  it('answers no when aborted while waiting', async () => {
    const { io, out } = setup();
    const controller = new AbortController();
    const answer = askYes(io, 'Apply? ', out, controller.signal);
    controller.abort();
    expect(await answer).toBe(false);
  });
});
