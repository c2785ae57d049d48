// The one atomic writer (issue 10 items 8, 9, 13): exclusive temp files a planted symlink
// cannot redirect, a temp name that fits wherever the target's name fits, and refusal of
// anything but a regular file before the first write.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, lstatSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkWritable, readRegularFile, writeFileAtomic } from '../../src/fs/atomic-write.js';

const dir = () => mkdtempSync(join(tmpdir(), 'menuctl-fs-'));

// Lets a test know the temp name the writer is about to use, as an attacker who could predict it would.
const predicted = vi.hoisted(() => ({ bytes: null as Buffer | null }));
vi.mock('node:crypto', async (original) => {
  const real = await original<typeof import('node:crypto')>();
  return { ...real, randomBytes: (n: number) => predicted.bytes ?? real.randomBytes(n) };
});

afterEach(() => { vi.restoreAllMocks(); });

describe('writeFileAtomic', () => {
  it('does not write through a symlink planted at the very temp name it uses: the create fails instead', async () => {
    const d = dir();
    const victim = join(d, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const target = join(d, 'plan.json');
    predicted.bytes = Buffer.alloc(8, 0xab);
    try {
      symlinkSync(victim, join(d, `.menuctl-${'ab'.repeat(8)}.tmp`));
      await expect(writeFileAtomic(target, 'new plan\n')).rejects.toMatchObject({ code: 'EEXIST' });
    } finally {
      predicted.bytes = null;
    }
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(() => lstatSync(target)).toThrow();
    // With an unpredictable name the same write goes through.
    await writeFileAtomic(target, 'new plan\n');
    expect(readFileSync(target, 'utf8')).toBe('new plan\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('replaces a symlink at the target instead of writing into what it points to', async () => {
    const d = dir();
    const victim = join(d, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const target = join(d, 'report.md');
    symlinkSync(victim, target);
    await writeFileAtomic(target, 'report\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(target).isFile()).toBe(true);
  });

  it('leaves no temp file behind, and gives an explicit mode exactly', async () => {
    const d = dir();
    await writeFileAtomic(join(d, 's.json'), '{}\n', { mode: 0o600 });
    expect(readdirSync(d)).toEqual(['s.json']);
    expect(statSync(join(d, 's.json')).mode & 0o777).toBe(0o600);
  });

  it('writes content given in pieces as it comes, multi-byte characters and all', async () => {
    const d = dir();
    const target = join(d, 'plan.json');
    const pieces = Array.from({ length: 3_000 }, (_, i) => `${i} é ✓ 𐀀 ${'x'.repeat(i % 200)}\n`);
    let taken = 0;
    await writeFileAtomic(target, (function* () { for (const p of pieces) { taken++; yield p; } })());
    expect(taken).toBe(pieces.length);
    expect(readFileSync(target, 'utf8')).toBe(pieces.join(''));
  });

  it('keeps the old file, and leaves no temp file, when the pieces stop with an error (a plan refused half-way)', async () => {
    const d = dir();
    const target = join(d, 'plan.json');
    writeFileSync(target, 'old plan\n');
    const refused = function* () {
      for (let i = 0; i < 100; i++) yield `${'y'.repeat(10_000)}\n`;
      throw new Error('refused');
    };
    await expect(writeFileAtomic(target, refused())).rejects.toThrow('refused');
    expect(readFileSync(target, 'utf8')).toBe('old plan\n');
    expect(readdirSync(d)).toEqual(['plan.json']);
  });

  it('writes a file whose name is 250 characters long (the temp name does not grow with it)', async () => {
    const d = dir();
    const target = join(d, `${'s'.repeat(245)}.json`);
    await writeFileAtomic(target, 'x\n');
    expect(readFileSync(target, 'utf8')).toBe('x\n');
  });
});

describe('checkWritable', () => {
  it('refuses a FIFO, a directory and a symlink, naming what it is', async () => {
    const d = dir();
    const fifo = join(d, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(checkWritable(fifo, 'secrets file')).rejects.toThrow(/it is a FIFO \(named pipe\), not a regular file/);
    mkdirSync(join(d, 'sub'));
    await expect(checkWritable(join(d, 'sub'), 'record')).rejects.toThrow(/it is a directory/);
    symlinkSync(join(d, 'nowhere'), join(d, 'link'));
    await expect(checkWritable(join(d, 'link'), 'record')).rejects.toThrow(/symbolic link/);
  });

  it('refuses a name longer than file systems allow, and a missing directory', async () => {
    const d = dir();
    await expect(checkWritable(join(d, 'n'.repeat(256)), 'secrets file')).rejects.toThrow(/256 bytes long; file systems allow 255/);
    await expect(checkWritable(join(d, 'missing', 'x.json'), 'secrets file')).rejects.toThrow(/its directory .*missing does not exist/);
    expect(readdirSync(d)).toEqual([]);
  });

  it('reading a FIFO is refused at once instead of blocking', async () => {
    const d = dir();
    const fifo = join(d, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(readRegularFile(fifo, 'record')).rejects.toThrow(/FIFO/);
    expect(await readRegularFile(join(d, 'absent'), 'record')).toBeNull();
  });
});
