// A big file read by the fast path is located an item at a time (ConfigSource.findInItem), not
// through a Document of the whole file. Every answer must be the one the whole Document gives.
import { describe, expect, it } from 'vitest';
import { FAILSAFE_SCHEMA, load } from 'js-yaml';
import { parseDocument } from 'yaml';
import { readFast } from '../../src/config/read-fast.js';
import { ConfigSource, ItemSpans, YAML_OPTIONS, type Segment } from '../../src/config/source.js';

/** A block-style config over 1 MiB with the shapes findings point into: quoted and plain values, comments, block scalars, numbers as written, empty lists. */
function blockConfig(actions: number): string {
  const out = ['# generated', 'version: 1', 'actions:'];
  for (let i = 0; i < actions; i++) {
    out.push(`  - name: "Action ${i}"   # a comment`, `    root_code: '*${100 + (i % 800)}*${i}#'`, '    transport_type: ussd',
      `    operators: [2172, 'MTN Uganda']`, '    steps:', '      - press: 01', '        expect: "My account"', '      - pin');
    if (i % 7 === 0) out.push('    description: |', '      Two lines', '      of text');
    out.push('    parsers:');
    for (let p = 0; p < 3; p++) {
      out.push(`      - category: cat-${p}`, `        status: ${p === 0 ? 'succeeded' : 'failed'}`,
        `        regex: '.*Reply ${p} for ${i}: \\d+ ''quoted'' (?<v>\\d+)'`, `        user_message: "Balance \\u00e9 {v}"`);
    }
    if (i % 5 === 0) out.push('    tests: []');
  }
  out.push('apps:', '  - name: Agent', '    package_name: com.example.agent', '    webhook_url: https://h.example.com/x');
  return `${out.join('\n')}\n`;
}

/** The same shapes written as one flow mapping over many lines (as generators write JSON). */
function flowConfig(actions: number): string {
  const items = [];
  for (let i = 0; i < actions; i++) {
    const parsers = [0, 1, 2].map((p) => `{"category": "cat-${p}", "status": "failed", "regex": ".*Reply ${p} for ${i}: \\\\d+ \\"q\\" (?<v>\\\\d+)"}`);
    items.push(`  {"name": "Action ${i}", "root_code": "*${i}#", "operators": [2172],\n   "steps": [{"press": "1"}, "pin"], "parsers": [${parsers.join(', ')}]}`);
  }
  return `{"version": 1, "actions": [\n${items.join(',\n')}\n], "apps": [{"name": "Agent", "package_name": "com.example.agent"}]}\n`;
}

function pathsFor(i: number): Segment[][] {
  const a: Segment[] = ['actions', i];
  return [
    a, [...a, 'name'], [...a, 'root_code'], [...a, 'operators', 1], [...a, 'steps', 0, 'press'], [...a, 'steps', 1], [...a, 'description'],
    [...a, 'parsers', 2, 'regex'], [...a, 'parsers', 0, 'user_message'], [...a, 'parsers', 1], [...a, 'tests'],
    [...a, 'parsers', 9], [...a, 'nokey'], [...a, 'parsers', 0, 'nokey', 'deeper'], ['apps', 0, 'package_name'],
  ];
}

/** Whether the source built a Document of the whole file (a private field, read to prove the item path was taken). */
const builtWhole = (src: ConfigSource): boolean => (src as unknown as { document: unknown }).document !== null;

function compare(text: string, sample: number[]): void {
  const byItem = readFast('f.yaml', text).src;
  const whole = new ConfigSource('f.yaml', text, parseDocument(text, YAML_OPTIONS));
  const same = (path: Segment[]) => {
    expect(byItem.locate(path), JSON.stringify(path)).toEqual(whole.locate(path));
    expect(byItem.locate(path, { key: true }), JSON.stringify(path)).toEqual(whole.locate(path, { key: true }));
    for (const k of [0, 3, 11]) expect(byItem.charLoc(path, k), JSON.stringify(path)).toEqual(whole.charLoc(path, k));
  };
  for (const i of sample) for (const path of pathsFor(i)) same(path);
  expect(byItem.positioned).toBe(true);
  expect(builtWhole(byItem)).toBe(false);
  // Outside any item (a top-level key, an index past the end): the whole Document answers.
  for (const path of [['version'], ['actions'], ['actions', 999_999, 'name']] as Segment[][]) same(path);
  expect(builtWhole(byItem)).toBe(true);
}

describe('locating an item at a time in a big file', () => {
  it('block style: every location, key location and character location is the whole Document\'s', () => {
    const text = blockConfig(3_000);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    compare(text, [0, 1, 6, 7, 1499, 2998, 2999]);
  });

  it('block style with CRLF line ends and comments between items: the same', () => {
    const text = blockConfig(3_000).replace(/\n  - name: "Action (\d*7)"/g, '\n  # before $1\n\n  - name: "Action $1"').replace(/\n/g, '\r\n');
    expect(text.length).toBeGreaterThan(1024 * 1024);
    compare(text, [0, 7, 17, 1497, 2999]);
  });

  it('flow style (one flow mapping over many lines): the same', () => {
    const text = flowConfig(6_000);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    compare(text, [0, 1, 3000, 5999]);
  });

  it('the fast read records the item spans a js-yaml pass of their own finds, for a big file only', () => {
    const spansOf = (src: ConfigSource) => (src as unknown as { items: Map<string, Uint32Array> | null }).items;
    for (const text of [blockConfig(3_000), blockConfig(3_000).replace(/\n/g, '\r\n'), flowConfig(6_000)]) {
      const own = new ItemSpans(text);
      load(text, { schema: FAILSAFE_SCHEMA, listener: own.listener as never });
      const recorded = spansOf(readFast('f.yaml', text).src);
      expect(recorded).toEqual(own.result());
      expect(recorded!.get('actions')!.length).toBe(2 * (text.startsWith('{') ? 6_000 : 3_000));
    }
    expect(spansOf(readFast('s.yaml', blockConfig(3)).src)).toBeNull();
  });

  it('item spans that do not count the items the fast path read are not used: the whole Document answers', () => {
    const text = blockConfig(3_000);
    const src = readFast('f.yaml', text).src;
    expect(src.listLengths.get('actions')).toBe(3_000);
    src.listLengths.set('actions', 2_999); // as if js-yaml's listener and the values disagreed
    const whole = new ConfigSource('f.yaml', text, parseDocument(text, YAML_OPTIONS));
    const path: Segment[] = ['actions', 1_000, 'parsers', 0, 'regex'];
    expect(src.locate(path)).toEqual(whole.locate(path));
    expect(builtWhole(src)).toBe(true);
  });
});
