// The two ways a file is read must agree: the fast one (js-yaml, values only) and the precise
// one (`yaml`, the reference for diagnostics) give the same values as written (the same `${...}`
// to evaluate) and, evaluated, the same values, and keep the same numbers as written; anything
// the fast one cannot read exactly is left to the precise one. Positions come from one place
// (ConfigSource, on demand) whichever path read the values.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VariableScope } from '../../src/config/interpolate.js';
import { loadSources } from '../../src/config/load.js';
import { evaluate } from '../../src/config/evaluate.js';
import { originOf } from '../../src/config/origin.js';
import { parseCount, parseFast, parseFile, parsePrecise, type ParsedFile } from '../../src/config/parse.js';
import { readFast, Refused } from '../../src/config/read-fast.js';
import type { ConfigSource, Json } from '../../src/config/source.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';

const ROOT = path.resolve(__dirname, '../..');
const processEnv = { MENUCTL_VAR_AGENT_WEBHOOK_URL: 'https://hooks.example.com/a', MENUCTL_VAR_TILL_WEBHOOK_URL: 'https://hooks.example.com/t', MENUCTL_VAR_HOOK: 'https://h.example.com' };
const env = new VariableScope(processEnv);

function examples(): { file: string; text: string }[] {
  const dir = path.join(ROOT, 'examples');
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ file: `examples/${f}`, text: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Every number's text as the model would take it (`written`), by path. */
function numbers(src: ConfigSource, root: Json): string[] {
  const out: string[] = [];
  const walk = (v: Json, p: string, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 50) return;
    const segs: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (const s of segs) {
      const x = (v as Record<string | number, Json>)[s]!;
      if (typeof x === 'number') out.push(`${p}/${s} ${src.written(v, s)}`);
      walk(x, `${p}/${s}`, depth + 1);
    }
  };
  walk(root, '', 0);
  return out;
}

/** A parsed file as the loader reads it: its values as written, then evaluated with `env`. */
interface Read { parsed: ParsedFile; written: Json; root: Json; src: ConfigSource; diagnostics: Diagnostic[] }

function read(parsed: ParsedFile, scope = env): Read {
  const written = structuredClone(parsed.values) as Json;
  const diagnostics: Diagnostic[] = [];
  const e = evaluate(parsed, scope, diagnostics, { shared: true });
  expect(parsed.values, 'evaluating shared values leaves them as written').toEqual(written);
  return { parsed, written, root: e.root as Json, src: parsed.src, diagnostics };
}

function fastOrNull(file: string, text: string): Read | null {
  try { return read(parseFast({ file, text })); } catch (e) { if (e instanceof Refused) return null; throw e; }
}

function both(file: string, text: string) {
  const fast = fastOrNull(file, text);
  const parsed = parsePrecise({ file, text });
  const precise = read(parsed);
  return { fast, precise, preciseDiags: [...parsed.diagnostics, ...precise.diagnostics] };
}

/** Both paths read alike: values as written, the strings to interpolate, values evaluated, numbers as written. */
function expectAlike(fast: Read, precise: Read): void {
  expect(fast.written).toEqual(precise.written);
  expect(fast.parsed.sites.map((p) => JSON.stringify(p)).sort()).toEqual(precise.parsed.sites.map((p) => JSON.stringify(p)).sort());
  expect(fast.root).toEqual(precise.root);
  expect(numbers(fast.src, fast.root)).toEqual(numbers(precise.src, precise.root));
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

describe('the fast path agrees with the precise one', () => {
  const cases = [...examples(), { file: 'tricky.yaml', text: TRICKY }, { file: 'tricky-crlf.yaml', text: TRICKY.replace(/\n/g, '\r\n') }];

  it('reads the examples and the everyday parts of a tricky file on the fast path', () => {
    for (const c of examples()) expect(fastOrNull(c.file, c.text), c.file).not.toBeNull();
    expect(fastOrNull('t.yaml', PLAIN)).not.toBeNull();
  });

  it.each(cases)('$file: same values, same numbers as written', ({ file, text }) => {
    const { fast, precise, preciseDiags } = both(file, text);
    expect(preciseDiags.filter((d) => d.severity === 'error')).toEqual([]);
    if (!fast) return; // refused: only the precise path reads it
    expectAlike(fast, precise);
  });

  it('keeps __proto__ and constructor as own keys without touching any prototype', () => {
    const root = readFast('p.yaml', PLAIN).root as Record<string, unknown>;
    expect(Object.keys(root)).toContain('__proto__');
    expect(Object.getPrototypeOf(root)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads yes/no/on/off and dates as strings, and numbers as yaml\'s core schema does', () => {
    const root = readFast('p.yaml', PLAIN).root as Record<string, Json[]>;
    expect(root.strings).toEqual(['yes', 'no', 'on', 'off', 'y', 'n', '1_000', '0x1F', '2001-01-01', 0.5, 12, 1]);
    expect(root.numbers).toEqual([31, 1000, -7, 7, 1.5, 1, 50, '0b1', -0.5, '-0x1']);
    expect(Object.is((readFast('z.yaml', 'a: -0\n').root as { a: number }).a, -0)).toBe(true);
  });
});

describe('plain scalars', () => {
  // Strings made of the characters yaml's core-schema tests look at, and the known edge cases.
  const CHARS = '0123456789abcdefxXoOBeE.+-_~nNulLtTrRsSfFaAiI';
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const generated = Array.from({ length: 3000 }, () => Array.from({ length: 1 + Math.floor(next() * 6) }, () => CHARS[Math.floor(next() * CHARS.length)]).join(''));
  const scalars = ['0', '-0', '0x1F', '0o17', '0b1', '1_000', '.5', '-.5', '1.', '1e3', '.inf', '-.Inf', '.NaN', 'null', 'NULL', '~', 'True', 'FALSE', 'yes', '007', '09', '1.50', ...generated];

  it('read on the fast path as yaml reads them: the same value, and a number keeps its text', () => {
    let fastRead = 0;
    for (const s of scalars) {
      const text = `k: ${s}\nl: [${s}]\n`;
      const fast = fastOrNull('s.yaml', text);
      if (!fast) continue; // `-` alone, `~x`...: left to the precise path
      fastRead++;
      expectAlike(fast, read(parsePrecise({ file: 's.yaml', text })));
      const root = fast.root as Record<string, Json>;
      if (typeof root.k === 'number') expect(fast.src.written(root, 'k'), s).toBe(s);
    }
    expect(fastRead).toBeGreaterThan(scalars.length * 0.9);
  });
});

/** The everyday subset of TRICKY: no anchors, aliases or tags (those go to the precise path). */
const PLAIN = `version: 1   # trailing comment
organization_id: 0o17
"quoted key": { a: 1, 'b c': [x, "y z", 'it''s'], d: {} }
multi: this plain scalar
  folds onto one line
literal: |
  line one \${HOOK}
strings: [yes, no, on, off, y, n, 1_000, "0x1F", 2001-01-01, .5, +12, 01]
numbers: [0x1F, 1e3, -7, 007, +1.5, 1., .5e2, 0b1, -.5, -0x1]
interp: "\${HOOK} and $\${literal}"
__proto__: { polluted: true }
constructor: { prototype: 1 }
10: integer-like key
`;

describe('the broken corpus reads the same through either path', () => {
  const dir = path.join(ROOT, 'test/fixtures/broken');
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ file: f, text: readFileSync(path.join(dir, f), 'latin1') }));
  const fast = files.filter(({ file, text }) => fastOrNull(file, text) !== null);

  it('most corpus files (the schema and semantic ones) take the fast path', () => {
    expect(fast.length).toBeGreaterThanOrEqual(30);
    expect(fast.map((f) => f.file)).not.toContain('duplicate-key.yaml');
  });

  it.each(fast)('$file', ({ file, text }) => {
    const r = both(file, text);
    expectAlike(r.fast!, r.precise);
  });
});

describe('the fast path never accepts what `yaml` rejects, nor reads it otherwise', () => {
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
  // A flow mapping at the root (JSON and the like) over several lines.
  '{\n"a": [\n1,\n2\n],\n"b": {"c": 01}\n}\n', '# c\n\n{\n  "a": "x\n\n y",\n  "b": \'p\n q\'\n}\n', '{a: plain\nmore, b: [\n\t1]}\n',
  '{"a"\n: 1}\n', '{"a":\n1, "b" : [ ], # c\n"c": {}\n,}\n', '{"a": 1}\nb: 2\n', '  {\n"a": [\n1]}\n', '{"a": [1\n}\n', '{"a": 1,\n"a": 2}\n',
  '{"a": "x\ny: z"}\n', '{"a": [\n- 1]}\n', '{"a": {\n"b"\n}}\n', '{"a": "\\u00e9\n\\t x"}\n', '{\n"a": 1\n}\n---\n{"b": 2}\n',
  ];

  it.each(PROBES.map((text) => [JSON.stringify(text).slice(0, 70), text]))('%s', (_, text) => {
    const { fast, precise, preciseDiags } = both('p.yaml', text);
    if (!fast) return;
    expect(preciseDiags.filter((d) => d.severity === 'error')).toEqual([]);
    expectAlike(fast, precise);
  });

  it('still reads most of them on the fast path', () => {
    const accepted = PROBES.filter((text) => fastOrNull('p.yaml', text) !== null);
    expect(accepted.length).toBeGreaterThan(PROBES.length / 3);
  });
});

describe('flow style (JSON-like, as generated configs are)', () => {
  it('a config written as JSON over many lines takes the fast path and reads as the precise one does', () => {
    const values = { version: 1, organization_id: 17, actions: [{ name: 'A', root_code: '*1#', operators: [2172], steps: [{ press: 1 }, 'pin'] }] };
    const text = `${JSON.stringify(values, null, 2)}\n`;
    const { fast, precise, preciseDiags } = both('flow.json.yaml', text);
    expect(preciseDiags).toEqual([]);
    expect(fast).not.toBeNull();
    expectAlike(fast!, precise);
    expect(fast!.root).toEqual(values);
  });
});

describe('the fast path refuses what it cannot read exactly', () => {
  const refused: [string, string][] = [
    ['a duplicate key', 'version: 1\nversion: 2\n'],
    ['a syntax error', 'version: [1\n'],
    ['a tag', 'version: !!str 1\n'],
    ['a %YAML directive', '%YAML 1.1\n---\nversion: yes\n'],
    ['an anchor and an alias', 'a: &x 1\nb: *x\n'],
    ['an explicit key', '? version\n: 1\n'],
    ['a null key', '~: 1\n'],
    ['a key over 1,000 characters', `${'k'.repeat(1001)}: 1\n`],
    ['several documents', 'version: 1\n---\nversion: 1\n'],
    ['an empty file', ''],
    ['a list at the root', '- 1\n'],
    ['a lone CR', 'a: 1\rb: 2\r'],
  ];

  it.each(refused)('%s', (_, text) => {
    expect(() => readFast('m.yaml', text)).toThrow(Refused);
  });

  it('an alias bomb is refused before anything walks it, then located by the precise path', () => {
    let text = 'version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 20; i++) text += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]\n`;
    expect(() => readFast('m.yaml', text)).toThrow(Refused);
    const r = loadSources([{ file: 'm.yaml', text }], { env: processEnv, cwd: '/' });
    expect(r.diagnostics.map((d) => [d.code, d.loc?.line])).toEqual([['yaml.alias-limit', 6]]);
  });

  it("values js-yaml would read differently come out as yaml's core schema reads them, on either path", () => {
    const text = 'a: 0b1\nb: -.5\nc: -0x1\nd: 1_000\n';
    expect(parseFile({ file: 'm.yaml', text }).values).toEqual({ a: '0b1', b: -0.5, c: '-0x1', d: '1_000' });
    expect(parsePrecise({ file: 'm.yaml', text }).values).toEqual({ a: '0b1', b: -0.5, c: '-0x1', d: '1_000' });
  });
});

describe('positions, on demand', () => {
  const text = 'version: 1\napps:\n  - name: "A\\tB ${NOPE}"\n    package_name: com.example.a\n  - [x, \'${NOPE2}\']\nref: &r { k: v }\nalias: *r\nempty:\n';

  it('locates values, keys, aliases, missing paths (at the deepest existing node) and characters', () => {
    const src = parsePrecise({ file: 'm.yaml', text }).src;
    expect(src.locate(['apps', 0, 'package_name'])).toEqual({ file: 'm.yaml', line: 4, col: 19 });
    expect(src.locate(['apps', 0, 'package_name'], { key: true })).toEqual({ file: 'm.yaml', line: 4, col: 5 });
    expect(src.locate(['apps', 0, 'nope', 3])).toEqual({ file: 'm.yaml', line: 3, col: 5 });
    expect(src.locate(['alias', 'k'])).toEqual({ file: 'm.yaml', line: 6, col: 14 });
    expect(src.locate(['empty'])).toEqual({ file: 'm.yaml', line: 8, col: 7 });
    expect(src.charLoc(['apps', 0, 'name'], 4)).toEqual({ file: 'm.yaml', line: 3, col: 17 });
  });

  it('places an unset variable inside a quoted string, with its address', () => {
    const diags: Diagnostic[] = [];
    evaluate(parseFile({ file: 'm.yaml', text }), env, diags, { shared: false });
    expect(diags.map((d) => [d.code, d.loc, d.address])).toEqual([
      ['env.unset', { file: 'm.yaml', line: 3, col: 17 }, 'app["com.example.a"]'], ['env.unset', { file: 'm.yaml', line: 5, col: 10 }, undefined]]);
  });

  it('a clean file builds no positioned document, even when locations are passed along, until one is read', () => {
    const r = loadSources([{ file: 'm.yaml', text: 'version: 1\napps:\n  - name: A\n    package_name: com.example.a\n' }], { env: processEnv, cwd: '/' });
    expect(r.diagnostics).toEqual([]);
    const app = r.state!.apps[0]!;
    const src = originOf(app)!.src;
    expect(Object.keys(app)).not.toContain('loc');
    const kept = { ...(app.loc ? { loc: app.loc } : {}) }; // what the planner does with every resource
    expect(kept.loc?.file).toBe('m.yaml');
    expect(src.positioned).toBe(false);
    expect(kept.loc).toEqual({ file: 'm.yaml', line: 3, col: 5 });
    expect(JSON.stringify(app.loc)).toBe('{"file":"m.yaml","line":3,"col":5}');
    expect(src.positioned).toBe(true);
  });
});
