// issue 28 item 7: the atomic writer is durable too. What a test can see of that: the file
// holds the whole content, the temp file's data is fsynced before the rename, and the
// directory after it (the order is the point: a sync after the rename would be too late).
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const events = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  const name = (p: unknown) => (String(p).includes('.menuctl-') ? 'temp' : basename(String(p)));
  return {
    ...real,
    open: async (path: string, ...rest: unknown[]) => {
      const fh = await (real.open as (...a: unknown[]) => Promise<import('node:fs/promises').FileHandle>)(path, ...rest);
      const sync = fh.sync.bind(fh);
      fh.sync = async () => { events.push(`sync ${name(path)}`); await sync(); };
      return fh;
    },
    rename: async (from: string, to: string) => { events.push(`rename ${name(from)} -> ${name(to)}`); await real.rename(from, to); },
  };
});

const { writeFileAtomic } = await import('../../src/fs/atomic-write.js');

afterEach(() => { events.length = 0; });

describe('writeFileAtomic is durable', () => {
  it.each([
    ['a plan file', 'plan.json', undefined],
    ['a secrets file (mode 0600)', 'secrets.json', 0o600],
  ])('%s: the data is synced before the rename, the directory after it', async (_what, file, mode) => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-sync-'));
    const target = join(dir, file);
    const content = `${'x'.repeat(200_000)}\nend\n`;
    await writeFileAtomic(target, content, mode === undefined ? {} : { mode });
    expect(readFileSync(target, 'utf8')).toBe(content);
    if (mode !== undefined) expect(statSync(target).mode & 0o777).toBe(mode);
    expect(events).toEqual(['sync temp', `rename temp -> ${file}`, `sync ${basename(dirname(target))}`]);
  });

  it('a failed write syncs and renames nothing, and leaves no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-sync-'));
    await expect(writeFileAtomic(join(dir, 'missing', 'x.json'), '{}', { mkdirs: false })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(events).toEqual([]);
  });
});
