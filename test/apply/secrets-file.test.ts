// SecretsWriter on its own: what it records and what check() may touch. A failing rename is
// injected by mocking node:fs/promises: as root, file modes cannot make a write fail.
import { mkdtemp, readdir, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const fault = vi.hoisted(() => ({ rename: false, renameTo: '' }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: (from: string, to: string) => (fault.rename || (fault.renameTo !== '' && to === fault.renameTo) ? Promise.reject(Object.assign(new Error('EIO: rename failed'), { code: 'EIO' })) : real.rename(from, to)),
  };
});

const { SecretsWriter } = await import('../../src/apply/secrets-file.js');
const { applyPlan } = await import('../../src/apply/apply.js');
const { FakeClient } = await import('./fake-client.js');
const { RecordKeeper } = await import('../../src/state/record-file.js');
const { recordJournal } = await import('../../src/apply/journal.js');
const { parseRecord } = await import('../../src/record/record.js');
const { FileBackend } = await import('../../src/state/file.js');
const { RecordStore } = await import('../../src/state/store.js');
const { createApp, plan } = await import('./plan-data.js');

const tempDir = () => mkdtemp(join(tmpdir(), 'menuctl-secrets-'));
const entry = { id: '1', token: 't-SECRET', webhook_secret: null };

afterEach(() => {
  fault.rename = false;
  fault.renameTo = '';
});

describe('SecretsWriter.save', () => {
  it('keeps another live app\'s token saved under the same address beside the new one, never overwriting it', async () => {
    const file = join(await tempDir(), 's.json');
    const w = new SecretsWriter(file);
    await w.save('app["a"]', entry);
    await w.save('app["a"]', { id: '2', token: 't-NEW', webhook_secret: null });
    await w.save('app["a"]', { id: '2', token: 't-NEW', webhook_secret: null });
    const doc = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'));
    expect(doc).toEqual({ 'app["a"]': { id: '2', token: 't-NEW', webhook_secret: null }, 'app["a"] (id 1)': entry });
  });

  it('keeps the token of another API\'s app with the same id (one file for two environments)', async () => {
    const file = join(await tempDir(), 's.json');
    const w = new SecretsWriter(file);
    await w.save('app["a"]', entry);
    // The same app read back with a webhook secret now: updated in place.
    await w.save('app["a"]', { ...entry, webhook_secret: 'w-1' });
    await w.save('app["a"]', { id: '1', token: 't-PRODUCTION', webhook_secret: null });
    const doc = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'));
    expect(doc).toEqual({
      'app["a"]': { id: '1', token: 't-PRODUCTION', webhook_secret: null },
      'app["a"] (id 1, another API)': { ...entry, webhook_secret: 'w-1' },
    });
  });

  it('does not list an address whose write failed', async () => {
    const file = join(await tempDir(), 'secrets.json');
    const writer = new SecretsWriter(file);
    fault.rename = true;
    await expect(writer.save('app["com.a"]', entry)).rejects.toThrow(/rename failed/);
    expect(writer.written).toEqual([]);
    fault.rename = false;
    await writer.save('app["com.b"]', entry);
    expect(writer.written).toEqual(['app["com.b"]']);
  });

  it('apply fails the change and leaves the address out of result.secrets when the write fails', async () => {
    const file = join(await tempDir(), 'secrets.json');
    const client = new FakeClient();
    const r = await applyPlan(plan([createApp('com.a')]), client, {
      concurrency: 1,
      secretsFile: file,
      onStart: () => { fault.rename = true; },
    });
    expect(r.outcomes[0]).toMatchObject({ status: 'failed' });
    expect(r.outcomes[0]!.error!.message).toMatch(/secrets could not be written/);
    expect(r.secrets).toBeUndefined();
  });
});

describe('SecretsWriter.check', () => {
  it('does not create the file when it does not exist', async () => {
    const dir = await tempDir();
    await new SecretsWriter(join(dir, 'secrets.json')).check();
    expect(await readdir(dir)).toEqual([]);
  });

  it('does not change an existing file, not even its mode', async () => {
    const file = join(await tempDir(), 'secrets.json');
    await writeFile(file, '{"app[\\"com.old\\"]": {"id": "1", "token": "x", "webhook_secret": null}}');
    await chmod(file, 0o644);
    const before = await stat(file);
    await new SecretsWriter(file).check();
    const after = await stat(file);
    expect(after.mode & 0o777).toBe(0o644);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('refuses when the directory does not exist, naming it', async () => {
    const dir = join(await tempDir(), 'missing');
    await expect(new SecretsWriter(join(dir, 'secrets.json')).check()).rejects.toThrow(`its directory ${dir} does not exist`);
  });
});

describe('a secrets file that cannot be written', () => {
  it('fails the app create, and the record still keeps the new app\'s id (never forgotten, never created twice)', async () => {
    const dir = await tempDir();
    const file = join(dir, 'secrets.json');
    const recordFile = join(dir, 'menuctl.lock');
    fault.renameTo = file;
    const keeper = new RecordKeeper({ store: new RecordStore(new FileBackend(recordFile, 'menuctl.lock')), shown: 'menuctl.lock', doc: new Map(), key: 'k' });
    const client = new FakeClient();
    const r = await applyPlan(plan([createApp('com.a')]), client, { concurrency: 1, secretsFile: file, journal: recordJournal(keeper) });
    expect(r.outcomes[0]).toMatchObject({ status: 'failed' });
    expect(r.outcomes[0]!.error!.message).toMatch(/secrets could not be written/);
    const { readFile } = await import('node:fs/promises');
    const doc = parseRecord(await readFile(recordFile, 'utf8'), 'menuctl.lock');
    expect(doc.get('k')!.apps.get('app["com.a"]')).toEqual({ id: r.outcomes[0]!.id });
  });
});
