// The fast parser (js-yaml + its events) must agree with the precise one (`yaml`) on values and on
// the location of every node, and must hand anything unusual to the precise one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFast, Refused } from '../../src/config/fast-tree.js';
import { loadSources } from '../../src/config/load.js';
import { parseFile, parsePrecise } from '../../src/config/parse.js';
import type { ConfigTree, Json } from '../../src/config/tree.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';

const ROOT = path.resolve(__dirname, '../..');
const env = { AGENT_WEBHOOK_URL: 'https://hooks.example.com/a', TILL_WEBHOOK_URL: 'https://hooks.example.com/t', HOOK: 'https://h.example.com' };

function examples(): { file: string; text: string }[] {
  const dir = path.join(ROOT, 'examples');
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ file: `examples/${f}`, text: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Every location the side table can give, as `path -> line:col`, walking values and their nodes. */
function locations(tree: ConfigTree): string[] {
  const out: string[] = [];
  const fmt = (l: { line: number; col: number }) => `${l.line}:${l.col}`;
  const walk = (v: Json, p: string, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 50) return;
    out.push(`${p} node ${fmt(tree.nodeLoc(tree.nodeOf(v)))}`);
    const segs: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (const s of segs) {
      const c = tree.child(v, s)!;
      out.push(`${p}/${s} value ${fmt(tree.nodeLoc(c.value))}${c.key ? ` key ${fmt(tree.nodeLoc(c.key))}` : ''}`);
      const x = (v as Record<string | number, Json>)[s]!;
      if (typeof x === 'string') out.push(`${p}/${s} char1 ${fmt(tree.scalarIndexLoc(c.value, 1))}`);
      if (typeof x === 'number') out.push(`${p}/${s} source ${tree.sourceOf(c.value)}`);
      walk(x, `${p}/${s}`, depth + 1);
    }
  };
  walk(tree.root, '', 0);
  return out;
}

function both(file: string, text: string) {
  const fastDiags: Diagnostic[] = [];
  const preciseDiags: Diagnostic[] = [];
  const fast = parseFast(file, text, env, fastDiags);
  const precise = parsePrecise({ file, text }, env, preciseDiags);
  return { fast, precise, fastDiags, preciseDiags };
}

const TRICKY = `# yaml-language-server: $schema=../schemas/menuctl.schema.json
version: 1   # trailing comment
organization_id: 0o17
"quoted key": { a: 1, 'b c': [x, "y z", 'it''s'], d: {} }
flow: [ { k: v }, [1, 2.5, -3], [], "\\t\\u00e9 \${HOOK} x" ]
multi: this plain scalar
  folds onto one line
literal: |
  line one
  line two \${HOOK}
folded: >-
  folded
  text
anchored: &ops [2172, 2645]
reused: *ops
map_anchor: &m
  x: 1
  y: [a]
map_alias: *m
nested:
  - pin
  - *ops
  - - deep
    - deeper
  - key: value
    other:   spaced value   # comment
  - "quoted item"
  - 'single \${HOOK}'
  - |
    block item
  - >
    folded item
empty_value:
empty_spaced:    # nothing here
after_empty:   
  - &s anchored scalar
  - *s
strings: [yes, no, on, off, y, n, 1_000, "0x1F", 2001-01-01, .5, +12, 01]
numbers: [0x1F, 1e3, -7, 007, +1.5, 1., .5e2]
bools: [true, False, TRUE, null, ~, Null]
interp: "\${HOOK} and $\${literal}"
__proto__: { polluted: true }
constructor: { prototype: 1 }
tabbed:\tvalue
10: integer-like key, listed first by Object.keys
'7': { z: 1, 3: three }
crlf_free: end
`;

describe('fast parser agrees with the precise one', () => {
  const cases = [...examples(), { file: 'tricky.yaml', text: TRICKY }, { file: 'tricky-crlf.yaml', text: TRICKY.replace(/\n/g, '\r\n') }];

  it('has examples to compare', () => expect(cases.length).toBeGreaterThanOrEqual(4));

  it.each(cases)('$file: same values, same location for every node', ({ file, text }) => {
    const { fast, precise, fastDiags, preciseDiags } = both(file, text);
    expect(fast.root).toEqual(precise.root);
    expect(locations(fast.tree)).toEqual(locations(precise.tree));
    expect(fastDiags).toEqual(preciseDiags);
  });

  it('keeps __proto__ and constructor as own keys without touching any prototype', () => {
    const { fast } = both('tricky.yaml', TRICKY);
    const root = fast.root as Record<string, unknown>;
    expect(Object.keys(root)).toContain('__proto__');
    expect(Object.getPrototypeOf(root)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads yes/no/on/off and dates as strings, and shares an anchored value with its alias', () => {
    const root = both('tricky.yaml', TRICKY).fast.root as Record<string, Json[]>;
    expect(root.strings!.slice(0, 6)).toEqual(['yes', 'no', 'on', 'off', 'y', 'n']);
    expect(root.strings).toContain('2001-01-01');
    expect(root.reused).toBe(root.anchored);
  });

  it('locates an unset variable inside a quoted string, as the precise path does', () => {
    const text = 'version: 1\napps:\n  - name: "A\\tB ${NOPE}"\n    package_name: com.example.a\n  - [x, \'${NOPE2}\']\n';
    const { fastDiags, preciseDiags, fast, precise } = both('m.yaml', text);
    expect(fastDiags.map((d) => [d.code, d.loc])).toEqual([
      ['env.unset', { file: 'm.yaml', line: 3, col: 17 }], ['env.unset', { file: 'm.yaml', line: 5, col: 10 }]]);
    expect(fastDiags).toEqual(preciseDiags);
    expect(fast.tree.pending.map((p) => p.path)).toEqual(precise.tree.pending.map((p) => p.path));
    expect([...fast.tree.reported]).toEqual([...precise.tree.reported]);
  });
});

describe('the broken corpus reads the same through either parser', () => {
  const dir = path.join(ROOT, 'test/fixtures/broken');
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ file: f, text: readFileSync(path.join(dir, f), 'latin1') }));
  const fast = files.filter(({ file, text }) => {
    try { parseFast(file, text, env, []); return true; } catch (e) { if (e instanceof Refused) return false; throw e; }
  });

  it('most corpus files (the schema and semantic ones) take the fast path', () => {
    expect(fast.length).toBeGreaterThanOrEqual(30);
    expect(fast.map((f) => f.file)).not.toContain('duplicate-key.yaml');
  });

  it.each(fast)('$file', ({ file, text }) => {
    const r = both(file, text);
    expect(r.fast.root).toEqual(r.precise.root);
    expect(locations(r.fast.tree)).toEqual(locations(r.precise.tree));
    expect(r.fastDiags).toEqual(r.preciseDiags);
  });
});

describe('the fast parser never accepts what `yaml` rejects, nor reads it otherwise', () => {
  // Edge cases where the two libraries differ (long keys, lone CR, `--- a: 1`, flow and quoted
  // continuation lines, alias keys) next to ones where they agree.
  const PROBES: string[] = [

  'a: b: c\n', 'key:value\n', 'a:\tb\n', 'a:\n- b\n', `${'k'.repeat(1100)}: 1\n`, '"a" : 1\n', 'a: [1, 2,]\n', 'a: {b: 1,}\n',
  'a: @foo\n', 'a: `b\n', 'a: b#c\n', 'a: 1\n...\nb: 2\n', 'a: |\n  x\n b: 1\n', '&k a: 1\n', 'a: &x 1\n*x : 2\n',
  'a: 1\rb: 2\r', 'a: "\\q"\n', 'a: 1\n  b: 2\n', 'a:\n  - b\n  c: d\n', 'a: {b: 1,\nc: 2}\n', 'a: [x\ny]\n',
  'a: b\n#c\n  d\n', 'a:\n  b\n  #c\n  d\n', 'a: "x\n\n  y"\n', "a: 'x\n  y'\n", 'a: >\n  x\n\n  y\n', 'a: |2\n   x\n',
  'a: |-\n  x\n\n', 'a: |+\n  x\n\n', '- a\n- b: c\n  d: e\n', 'a: !!str 1\n', 'a: - b\n', 'a:\n  ? b\n  : c\n',
  'a: {? b : c}\n', 'a: [? b : c]\n', 'a: [b: c]\n', 'a: 0o8\n', 'a: 1e\n', 'a: 0x\n', 'a: +.inf\n', 'a: .NaN\n',
  'a: "\\u00e9\\x41\\N\\_\\L"\n', 'a: \ud83d\ude00\n', 'a: b\n---\n', '---\na: 1\n', '--- a: 1\n', 'a: 1 # c\n# end', '\ufeffa: 1\n',
  'a:    \n', 'a: [ ]\nb: { }\n', 'a: "multi\\\n  line"\n', 'a: x:y\n', 'a: x :y\n', 'a: -x\n', 'a: ?x\n', 'a: :x\n',
  '"a\\tb": 1\n', "'a''b': 1\n", 'a: ~\nb: null\nc:\n', '1: a\n2.0: b\ntrue: c\n', 'a:\n\t- b\n', 'a: [a, [b, {c: d}]]\n',
  'a:\n  b:\n    c:\n      d: 1\n', 'x: &a\n  - 1\ny: *a\nz: [*a, *a]\n', 'a: *\n', 'a: &\n', 'a: b\n c: d\n',
  'a: 12:30\n', 'a: 2001-12-14t21:59:43.10-05:00\n', 'a: 0b11\n', 'a: 1_0\n', 'a: 09\n', 'a: 0.\n', 'a: .0\n', 'a: -.inf\n',
  'a: {\n  b: 1\n}\n', 'a: {\n  b: 1\n  }\n', 'a: [\n  1,\n  2\n]\n', 'x:\n  a: [1,\n    2]\n', 'x:\n  a: [1,\n  2]\n', 'x:\n  a: [1,\n   2]\n',
  'x:\n  - {a: 1,\n    b: 2}\n', 'x:\n  - {a: 1,\n   b: 2}\n', 'a: "x\ny"\n', 'x:\n  a: "x\n  y"\n', 'x:\n  a: "x\n   y"\n', 'x:\n  a: plain\n  more\n',
  'x:\n  a: plain\n   more\n', 'x:\n  - a: "q\n    r"\n', 'x:\n  - a: "q\n   r"\n', 'a: b # c\n   # d\nc: 1\n', 'a: b\n\n   # d\nc: 1\n',
  'a: *x\n', 'a: &x [1]\nb: *x # c\n  # d\nc: 1\n', 'a:\n  # only comment\nb: 1\n', 'a: [1, # c\n  2]\n',
  ];

  it.each(PROBES.map((text) => [JSON.stringify(text).slice(0, 70), text]))('%s', (_, text) => {
    const preciseDiags: Diagnostic[] = [];
    const precise = parsePrecise({ file: 'p.yaml', text }, env, preciseDiags);
    let fast;
    const fastDiags: Diagnostic[] = [];
    try { fast = parseFast('p.yaml', text, env, fastDiags); } catch (e) { if (e instanceof Refused) return; throw e; }
    expect(preciseDiags.filter((d) => d.severity === 'error')).toEqual([]);
    expect(fast.root).toEqual(precise.root);
    expect(locations(fast.tree)).toEqual(locations(precise.tree));
    expect(fastDiags).toEqual(preciseDiags);
  });

  it('still reads most of them on the fast path', () => {
    const accepted = PROBES.filter((text) => { try { parseFast('p.yaml', text, env, []); return true; } catch { return false; } });
    expect(accepted.length).toBeGreaterThan(PROBES.length / 2);
  });
});

describe('fast parser refuses what it cannot read exactly', () => {
  const refused: [string, string][] = [
    ['a duplicate key', 'version: 1\nversion: 2\n'],
    ['a syntax error', 'version: [1\n'],
    ['a tag', 'version: !!str 1\n'],
    ['a %YAML directive', '%YAML 1.1\n---\nversion: yes\n'],
    ['an empty sequence item', 'version: 1\nactions:\n  -\n'],
    ['a flow key without value', 'version: {a, b: 1}\n'],
    ['a pair inside a flow sequence', 'version: [a: 1]\n'],
    ['a list as key', '? [a]\n: 1\n'],
    ['a null key', '~: 1\n'],
    ['an int js-yaml reads differently', 'version: 0b1\n'],
    ['a float js-yaml reads as a string', 'version: -.5\n'],
    ['a negative zero', 'version: -0\n'],
    ['several documents', 'version: 1\n---\nversion: 1\n'],
    ['an empty file', ''],
    ['a list at the root', '- 1\n'],
    ['an alias cycle', 'version: 1\nactions: &x [*x]\n'],
    ['an alias to a string with ${}', 'a: &h "${HOOK}"\nb: *h\n'],
  ];

  it.each(refused)('%s', (_, text) => {
    expect(() => parseFast('m.yaml', text, env, [])).toThrow(Refused);
  });

  it('an alias bomb is refused before anything walks it, then located by the precise path', () => {
    let text = 'version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 20; i++) text += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]\n`;
    expect(() => parseFast('m.yaml', text, env, [])).toThrow(Refused);
    const r = loadSources([{ file: 'm.yaml', text }], { env, cwd: '/' });
    expect(r.diagnostics.map((d) => [d.code, d.loc?.line])).toEqual([['yaml.alias-limit', 6]]);
  });

  it("values js-yaml would read differently come out as yaml's core schema reads them", () => {
    const r = parseFile({ file: 'm.yaml', text: 'a: 0b1\nb: -.5\nc: -0x1\nd: 1_000\n' }, env, []);
    expect(r.root).toEqual({ a: '0b1', b: -0.5, c: '-0x1', d: '1_000' });
  });

  it('explicit keys with values are read by the fast path', () => {
    const text = '? version\n: 1\n? apps\n: []\n';
    const { fast, precise } = both('m.yaml', text);
    expect(fast.root).toEqual({ version: 1, apps: [] });
    expect(locations(fast.tree)).toEqual(locations(precise.tree));
  });
});
