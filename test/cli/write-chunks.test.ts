// writeChunks: output written as it is rendered, which must end (not hang) when the reader goes away.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeChunks } from '../../src/cli/io.js';

function* pieces(n: number, size: number): Generator<string> {
  for (let i = 0; i < n; i++) yield `${String(i).padStart(size - 1, '.')}\n`;
}

describe('writeChunks', () => {
  it('writes every piece, in ~64 KB writes of whole pieces, waiting for drain', async () => {
    const writes: string[] = [];
    const slow = new Writable({ highWaterMark: 1024, write(c: Buffer, _e, done) { writes.push(c.toString()); setImmediate(done); } });
    await writeChunks(slow, pieces(5_000, 100));
    expect(writes.join('')).toBe([...pieces(5_000, 100)].join(''));
    expect(writes.length).toBeGreaterThan(1);
    for (const w of writes) expect(w.length % 100).toBe(0);
  });

  it('leaves no listener behind on the stream, however many times it waits', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      let writes = 0;
      const slow = new Writable({ highWaterMark: 1024, write(_c, _e, done) { writes++; setImmediate(done); } });
      const before = { close: slow.listenerCount('close'), drain: slow.listenerCount('drain'), error: slow.listenerCount('error') };
      await writeChunks(slow, pieces(5_000, 100));
      expect(writes).toBeGreaterThan(5);
      expect({ close: slow.listenerCount('close'), drain: slow.listenerCount('drain'), error: slow.listenerCount('error') }).toEqual(before);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops quietly when the reader goes away while it waits (EPIPE: `menuctl plan | head`), instead of hanging', async () => {
    let writes = 0;
    const gone = new Writable({ highWaterMark: 1, write(_c, _e, done) { writes++; setImmediate(() => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))); } });
    gone.on('error', () => {});
    await expect(writeChunks(gone, pieces(5_000, 100))).resolves.toBeUndefined();
    expect(writes).toBe(1);
  });

  it('rejects when the stream fails otherwise while it waits, instead of hanging', async () => {
    const failing = new Writable({ highWaterMark: 1, write(_c, _e, done) { setImmediate(() => done(Object.assign(new Error('write EIO'), { code: 'EIO' }))); } });
    failing.on('error', () => {});
    await expect(writeChunks(failing, pieces(5_000, 100))).rejects.toThrow('EIO');
  });

  it('stops when the stream is closed under it', async () => {
    const out = new PassThrough({ highWaterMark: 1 });
    setImmediate(() => out.destroy());
    await expect(writeChunks(out, pieces(5_000, 100))).resolves.toBeUndefined();
  });
});
