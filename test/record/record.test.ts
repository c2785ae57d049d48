// The record file format: deterministic, one sorted line per resource, conflicts named by line.
import { describe, expect, it } from 'vitest';
import { parseRecord, recordedAction, scopeKey, serializeRecord, type RecordDocument } from '../../src/record/record.js';

const scope = scopeKey('https://api.example.com/', 62);

function doc(): RecordDocument {
  return new Map([[scope, {
    actions: new Map([
      ['action["B"]', { id: 'bb', operator_ids: [2], steps: [{ kind: 'select' as const, name: 'x', description: '' }] }],
      ['action["A"]', { id: 'aa', operator_ids: [1, 3], steps: [{ kind: 'press' as const, value: '1', expect: 'Menu', description: 'd' }] }],
    ]),
    apps: new Map([['app["com.z"]', { id: '7' }], ['app["com.a"]', { id: null, pending: 'create' as const }]]),
  }]]);
}

/** The first line menuctl writes: a record's lines are judged as lines only below it. */
const H = '# menuctl applied-state record: what the API cannot tell (docs/planning.md). Commit it beside the config.\n';

describe('the record file', () => {
  it('is one line per resource, sorted by address, the same bytes for the same facts in any order', () => {
    const text = serializeRecord(doc());
    const lines = text.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.map((l) => JSON.parse(l).address)).toEqual(['action["A"]', 'action["B"]', 'app["com.a"]', 'app["com.z"]']);
    expect(JSON.parse(lines[2]!)).toEqual({ scope: 'https://api.example.com org 62', address: 'app["com.a"]', id: null, pending: 'create' });
    const reversed: RecordDocument = new Map([[scope, {
      actions: new Map([...doc().get(scope)!.actions].reverse()),
      apps: new Map([...doc().get(scope)!.apps].reverse()),
    }]]);
    expect(serializeRecord(reversed)).toBe(text);
    expect(serializeRecord(parseRecord(text, 'menuctl.lock'))).toBe(text);
  });

  it('writes what each entry says now: a replaced entry, or one moved to another address or scope, is written anew', () => {
    const d = doc();
    const actions = d.get(scope)!.actions;
    const before = serializeRecord(d);
    actions.set('action["A"]', { ...actions.get('action["A"]')!, id: 'a2' });
    const entry = actions.get('action["B"]')!;
    actions.delete('action["B"]');
    actions.set('action["C"]', entry);
    const other = scopeKey('https://other.example.com/', 1);
    d.set(other, { actions: new Map([['action["C"]', entry]]), apps: new Map() });
    const after = serializeRecord(d).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(before).not.toContain('a2');
    expect(after.map((l) => [l.scope, l.address, l.id])).toEqual([
      [scope, 'action["A"]', 'a2'], [scope, 'action["C"]', 'bb'], [scope, 'app["com.a"]', null], [scope, 'app["com.z"]', '7'],
      [other, 'action["C"]', 'bb'],
    ].sort((x, y) => (x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : 0)));
  });

  it('names the line of a merge conflict, a duplicate address and a broken line', () => {
    const text = serializeRecord(doc());
    const lines = text.split('\n');
    const conflicted = [...lines.slice(0, 4), '<<<<<<< HEAD', lines[4], '=======', lines[4], '>>>>>>> feature', ...lines.slice(5)].join('\n');
    expect(() => parseRecord(conflicted, 'menuctl.lock')).toThrow(/^menuctl\.lock:5:1: an unresolved merge conflict/);
    const twice = [...lines.slice(0, 5), lines[4], ...lines.slice(5)].join('\n');
    expect(() => parseRecord(twice, 'menuctl.lock')).toThrow(/^menuctl\.lock:6:1: action\["B"\] appears twice .*keep one of the two lines/);
    expect(() => parseRecord(`${H}{"scope":`, 'r.lock')).toThrow(/^r\.lock:2:1: not a JSON object; restore the line from git/);
  });

  it('a file that is not a record at all (--record given the wrong path) is named as such', () => {
    for (const text of ['root:x:0:0:root:/root:/bin/bash\n', '{"a": 1}\n', '[]', `{"scope":"s","address":"action[\\"A\\"]"`]) {
      expect(() => parseRecord(text, 'x')).toThrow(/^x:1:1: this is not a menuctl record .*give --record the path of the record, or leave --record out/);
    }
  });

  it('refuses, with its line, a line that parses but is not a record entry (no crash on null steps or a null line)', () => {
    const line = (steps: unknown, operators: unknown = [1]) =>
      JSON.stringify({ scope, address: 'action["A"]', id: 'aa', operator_ids: operators, steps });
    for (const text of ['null', '5', '[]']) expect(() => parseRecord(`${H}${text}`, 'r.lock')).toThrow(/^r\.lock:2:1: not a JSON object/);
    expect(() => parseRecord(`${H}${line([null, 5])}`, 'r.lock')).toThrow(/^r\.lock:2:1: an action line's "steps" must be step objects/);
    expect(() => parseRecord(`${H}${line([{ kind: 'bogus', description: '' }])}`, 'r.lock')).toThrow(/^r\.lock:2:1: an action line's "steps"/);
    // A step the record would compare as something else: a press without its value, a select without its name.
    expect(() => parseRecord(`${H}${line([{ kind: 'press', expect: null, description: '' }])}`, 'r.lock')).toThrow(/an action line's "steps"/);
    expect(() => parseRecord(`${H}${line([{ kind: 'select', description: '' }])}`, 'r.lock')).toThrow(/an action line's "steps"/);
    expect(() => parseRecord(`${H}${line([], ['x'])}`, 'r.lock')).toThrow(/"operator_ids" whole numbers/);
    expect(parseRecord(line([{ kind: 'press', value: '1', expect: null, description: '' }]), 'r.lock').get(scope)?.actions.size).toBe(1);
  });

  it('answers for an action only when it was applied to the same live id', () => {
    const s = doc().get(scope)!;
    expect(recordedAction(s, 'action["A"]', 'aa')?.operator_ids).toEqual([1, 3]);
    expect(recordedAction(s, 'action["A"]', 'other')).toBeUndefined();
    expect(recordedAction(null, 'action["A"]', 'aa')).toBeUndefined();
  });
});
