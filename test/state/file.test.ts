// The file backend (src/state/file.ts) and the store over it (src/state/store.ts): compare-and-
// swap writes, per-scope locks that name their holder, merging a scope into a newer record.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockHeld, LockLost, StateConflict } from '../../src/state/backend.js';
import { FileBackend } from '../../src/state/file.js';
import { lockInfo, RecordStore } from '../../src/state/store.js';
import { emptyScope, parseRecord, scopeKey, scopeUrl } from '../../src/record/record.js';

const dir = () => mkdtempSync(join(tmpdir(), 'menuctl-state-file-'));
const backend = (d: string) => new FileBackend(join(d, 'menuctl.lock'), 'menuctl.lock');

describe('file backend', () => {
  it('reads nothing before the first write, then what was written with its version', async () => {
    const b = backend(dir());
    expect(await b.read()).toEqual({ text: null, version: null });
    const v = await b.write('# menuctl applied-state record\n', null, 'first');
    expect(await b.read()).toEqual({ text: '# menuctl applied-state record\n', version: v });
  });

  it('refuses a write from a stale version and leaves the file as it was', async () => {
    const d = dir();
    const a = backend(d);
    const b = backend(d);
    const v1 = await a.write('one\n', null, 'a');
    await b.write('two\n', v1, 'b');
    await expect(a.write('three\n', v1, 'a again')).rejects.toBeInstanceOf(StateConflict);
    await expect(a.write('three\n', null, 'a from nothing')).rejects.toBeInstanceOf(StateConflict);
    expect(readFileSync(join(d, 'menuctl.lock'), 'utf8')).toBe('two\n');
  });

  it('a held scope lock refuses a second holder, naming the first; another scope is free; unlock by id', async () => {
    const d = dir();
    const first = lockInfo('http://api org 1', 'apply', { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/menus', GITHUB_RUN_ID: '42' });
    await backend(d).lock(first, { timeoutMs: 0 });
    const second = lockInfo('http://api org 1', 'apply', {});
    const refused = await backend(d).lock(second, { timeoutMs: 0 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockHeld);
    expect((refused as LockHeld).holder).toMatchObject({ id: first.id, command: 'apply', run_url: 'https://github.com/acme/menus/actions/runs/42' });
    await backend(d).lock(lockInfo('http://api org 2', 'apply', {}), { timeoutMs: 0 });
    expect((await backend(d).locks()).map((l) => l.scope).sort()).toEqual(['http://api org 1', 'http://api org 2']);
    expect(await backend(d).unlock('no-such-id')).toBeNull();
    expect((await backend(d).unlock(first.id))?.id).toBe(first.id);
    await backend(d).lock(second, { timeoutMs: 0 });
  });

  it('a waiting lock is taken once the holder releases it, and says once that it waits', async () => {
    const d = dir();
    const first = lockInfo('s', 'apply', {});
    await backend(d).lock(first, { timeoutMs: 0 });
    const waits: string[] = [];
    // Released as soon as the second says it waits: no sleep decides the order.
    await backend(d).lock(lockInfo('s', 'apply', {}), {
      timeoutMs: 30_000,
      onWait: (h) => {
        waits.push(h.id);
        void backend(d).unlock(first.id);
      },
    });
    expect(waits).toEqual([first.id]);
    expect((await backend(d).locks()).map((l) => l.id)).not.toContain(first.id);
  });
});

describe('a lock lost under its holder', () => {
  it('released by another run with --force: the holder\'s verify and its next record write throw LockLost; the file is untouched', async () => {
    const d = dir();
    const store = new RecordStore(backend(d));
    const key = scopeKey('https://api.example.com', 1);
    const mine = await store.lock(key, 'apply', { env: {}, timeoutMs: 0 });
    await store.verifyLocks();
    const doc = await store.load();
    doc.set(key, emptyScope());
    await store.save(doc, key, 'first');
    const before = readFileSync(join(d, 'menuctl.lock'), 'utf8');
    expect(await backend(d).unlock(mine.id, { force: true })).toMatchObject({ id: mine.id });
    await expect(store.verifyLocks()).rejects.toBeInstanceOf(LockLost);
    await expect(store.save(doc, key, 'second')).rejects.toThrow(`this run no longer holds the state lock of ${key} (lock id ${mine.id})`);
    // Taken by another run: named.
    const other = new RecordStore(backend(d));
    const theirs = await other.lock(key, 'apply', { env: {}, timeoutMs: 0 });
    // A loss sticks: the store answers at once; the record write, checked afresh, names the taker.
    await expect(store.verifyLocks()).rejects.toBeInstanceOf(LockLost);
    await expect(store.save(doc, key, 'third')).rejects.toThrow(`lock id ${theirs.id}`);
    expect(readFileSync(join(d, 'menuctl.lock'), 'utf8')).toBe(before);
    await other.close();
  });

  it('verifyLocks shares one check among the callers that asked while it was queued', async () => {
    const d = dir();
    let checks = 0;
    const b = backend(d);
    const verify = b.verify.bind(b);
    b.verify = async (lock) => {
      checks++;
      await new Promise((r) => setTimeout(r, 20));
      return verify(lock);
    };
    const store = new RecordStore(b);
    await store.lock(scopeKey('https://api.example.com', 1), 'apply', { env: {}, timeoutMs: 0 });
    const first = store.verifyLocks();
    // Asked while the first is under way: one more check after it, shared by all who ask meanwhile.
    await new Promise((r) => setTimeout(r, 5));
    await Promise.all([first, store.verifyLocks(), store.verifyLocks(), store.verifyLocks()]);
    expect(checks).toBe(2);
    await store.close();
  });
});

describe('a backend whose check is costly (verifyWindowMs)', () => {
  it('an answer begun within the window serves later callers; past it, and with no window, each asks afresh', async () => {
    const d = dir();
    let checks = 0;
    const b = backend(d) as FileBackend & { verifyWindowMs?: number };
    const verify = b.verify.bind(b);
    b.verify = async (lock) => {
      checks++;
      return verify(lock);
    };
    const store = new RecordStore(b);
    await store.lock(scopeKey('https://api.example.com', 1), 'apply', { env: {}, timeoutMs: 0 });
    await store.verifyLocks();
    await store.verifyLocks();
    expect(checks).toBe(2);
    Object.defineProperty(b, 'verifyWindowMs', { value: 200 });
    // The pass just made (a few ms ago) answers for these.
    await store.verifyLocks();
    await store.verifyLocks();
    await store.verifyLocks();
    expect(checks).toBe(2);
    await new Promise((r) => setTimeout(r, 250));
    await store.verifyLocks();
    expect(checks).toBe(3);
    await store.close();
  });
});

describe('record store', () => {
  it('a write that finds another scope written meanwhile keeps that scope and writes its own', async () => {
    const d = dir();
    const mine = new RecordStore(backend(d));
    const theirs = new RecordStore(backend(d));
    const docA = await mine.load();
    const docB = await theirs.load();
    docA.set('scope A', { ...emptyScope(), apps: new Map([['app["a"]', { id: '1' }]]) });
    docB.set('scope B', { ...emptyScope(), apps: new Map([['app["b"]', { id: '2' }]]) });
    await theirs.save(docB, 'scope B', 'b');
    await mine.save(docA, 'scope A', 'a');
    const stored = parseRecord(readFileSync(join(d, 'menuctl.lock'), 'utf8'), 'menuctl.lock');
    expect([...stored.keys()].sort()).toEqual(['scope A', 'scope B']);
    expect(stored.get('scope B')!.apps.get('app["b"]')).toEqual({ id: '2' });
  });

  it('close releases the locks it took and leaves no lock file', async () => {
    const d = dir();
    const store = new RecordStore(backend(d));
    await store.lock('s1', 'state push', { env: {}, timeoutMs: 0 });
    await store.lock('s2', 'state push', { env: {}, timeoutMs: 0 });
    expect(readdirSync(d).filter((n) => n.endsWith('.lock-info'))).toHaveLength(2);
    await store.close();
    expect(readdirSync(d).filter((n) => n.endsWith('.lock-info'))).toHaveLength(0);
    expect(existsSync(join(d, 'menuctl.lock'))).toBe(false);
  });
});

describe('one API, one scope', () => {
  it.each([
    ['HTTP://API.Example.com:80/', 'http://api.example.com'],
    ['http://api.example.com/api', 'http://api.example.com'],
    ['http://api.example.com/api/', 'http://api.example.com'],
    ['https://api.example.com:443', 'https://api.example.com'],
    ['https://api.example.com:8443/', 'https://api.example.com:8443'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['http://gw.example.com/tenant-a/', 'http://gw.example.com/tenant-a'],
  ])('%s is scoped as %s', (url, scope) => {
    expect(scopeUrl(url)).toBe(scope);
    expect(scopeKey(url, 7)).toBe(`${scope} org 7`);
  });

  it('a record written under an older spelling of the URL is found under the normalised one', () => {
    const text = '# menuctl applied-state record\n{"scope":"HTTP://API.example.com:80/ org 3","address":"app[\\"com.x\\"]","id":"9"}\n';
    const doc = parseRecord(text, 'menuctl.lock');
    expect(doc.get(scopeKey('http://api.example.com/api', 3))!.apps.get('app["com.x"]')).toEqual({ id: '9' });
  });

  it('two spellings of one API in one record are one scope: a second line for the same address is refused', () => {
    const text = [
      '# menuctl applied-state record',
      '{"scope":"http://h org 1","address":"app[\\"com.x\\"]","id":"9"}',
      '{"scope":"HTTP://h/ org 1","address":"app[\\"com.x\\"]","id":"9"}',
    ].join('\n');
    expect(() => parseRecord(text, 'menuctl.lock')).toThrow(/appears twice for http:\/\/h org 1/);
  });
});
