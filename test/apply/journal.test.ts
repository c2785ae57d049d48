// What apply tells the record, change by change: only what the API confirmed is recorded.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordJournal } from '../../src/apply/journal.js';
import { RecordKeeper } from '../../src/state/record-file.js';
import { FileBackend } from '../../src/state/file.js';
import { RecordStore } from '../../src/state/store.js';

const fileStore = (file: string) => new RecordStore(new FileBackend(file, 'menuctl.lock'));
import { parseRecord } from '../../src/record/record.js';
import type { Change } from '../../src/plan/types.js';
import { actionDesired, archive, createAction, createApp } from './plan-data.js';

const KEY = 'http://api org 1';

function setup() {
  const file = join(mkdtempSync(join(tmpdir(), 'menuctl-journal-')), 'menuctl.lock');
  const keeper = new RecordKeeper({ store: fileStore(file), shown: 'menuctl.lock', doc: new Map(), key: KEY });
  const read = () => parseRecord(readFileSync(file, 'utf8'), 'menuctl.lock').get(KEY)!;
  return { journal: recordJournal(keeper), read };
}

const restore = (fields: Change['fields']): Change => ({
  op: 'restore', type: 'action', id: 'a1', address: 'action["A"]', fingerprint: 'f', fields,
  desired: { ...actionDesired('A'), steps: [{ kind: 'select', name: 'bundle' }] },
});

describe('recordJournal', () => {
  it('records an action after its create, keeps it over a restore that sent no steps, and over an archive', async () => {
    const { journal, read } = setup();
    await journal.confirmed(createAction('A'), 'a1');
    expect(read().actions.get('action["A"]')).toEqual({ id: 'a1', operator_ids: [1], steps: [{ kind: 'press', value: '1', expect: null, description: '' }] });
    await journal.confirmed(restore([]), 'a1');
    expect(read().actions.get('action["A"]')!.steps[0]!.kind).toBe('press');
    await journal.confirmed(restore([{ path: 'steps[0].kind', before: 'press', after: 'select' }]), 'a1');
    expect(read().actions.get('action["A"]')!.steps[0]!.kind).toBe('select');
    await journal.confirmed(archive('action', 'action["A"]', 'a1'), 'a1');
    // The archived action keeps its steps: a later restore is compared with this line.
    expect(read().actions.get('action["A"]')).toMatchObject({ id: 'a1', steps: [{ kind: 'select' }] });
  });

  it('moves the line of a renamed action (one line per live id), also after the file was read with the old name', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'menuctl-journal-')), 'menuctl.lock');
    const keeper = new RecordKeeper({ store: fileStore(file), shown: 'menuctl.lock', doc: new Map(), key: KEY });
    const journal = recordJournal(keeper);
    const read = () => parseRecord(readFileSync(file, 'utf8'), 'menuctl.lock').get(KEY)!;
    await journal.confirmed(createAction('A'), 'a1');
    await journal.confirmed(createAction('B'), 'b1');
    const update = (name: string): Change => ({
      op: 'update', type: 'action', id: 'a1', address: `action["${name}"]`, fingerprint: 'f',
      fields: [{ path: 'name', before: 'x', after: name }], desired: actionDesired(name),
    });
    await journal.confirmed(update('A2'), 'a1');
    expect([...read().actions.keys()]).toEqual(['action["A2"]', 'action["B"]']);
    // A second keeper starts from the file: the rename back is found by id there too.
    const again = new RecordKeeper({ store: fileStore(file), shown: 'menuctl.lock', doc: parseRecord(readFileSync(file, 'utf8'), 'menuctl.lock'), key: KEY });
    await recordJournal(again).confirmed(update('A'), 'a1');
    expect([...read().actions.keys()]).toEqual(['action["A"]', 'action["B"]']);
    // Archived, then the same address applied to another id: the line follows the new id.
    await recordJournal(again).confirmed(archive('action', 'action["A"]', 'a1'), 'a1');
    await recordJournal(again).confirmed(createAction('A'), 'a9');
    expect(read().actions.get('action["A"]')!.id).toBe('a9');
    expect(read().actions.size).toBe(2);
  });

  it('a rename from X while a new X was confirmed first keeps both lines: the new X\'s is not the renamed one\'s', async () => {
    const { journal, read } = setup();
    await journal.confirmed(createAction('X'), 'a1');
    await journal.confirmed(createAction('X'), 'a9'); // a new X, confirmed before a1's rename
    await journal.confirmed({
      op: 'update', type: 'action', id: 'a1', address: 'action["Y"]', fingerprint: 'f',
      fields: [{ path: 'name', before: 'X', after: 'Y' }], desired: actionDesired('Y'),
    }, 'a1');
    expect([...read().actions].map(([address, e]) => [address, e.id])).toEqual([['action["X"]', 'a9'], ['action["Y"]', 'a1']]);
  });

  it('marks an app create in flight before it is sent; an answer gives the id, a definite failure clears it, a lost answer says how', async () => {
    const { journal, read } = setup();
    const one = createApp('com.one');
    const two = createApp('com.two');
    const three = createApp('com.three');
    for (const c of [one, two, three]) await journal.beforeCreate(c);
    expect(read().apps.get('app["com.one"]')).toEqual({ id: null, pending: 'create' });
    await journal.confirmed(one, '7');
    await journal.failed(two, true);
    await journal.failed(three, false, 'connection reset');
    expect(Object.fromEntries(read().apps)).toEqual({ 'app["com.one"]': { id: '7' }, 'app["com.three"]': { id: null, pending: 'create', lost: 'connection reset' } });
  });
});
