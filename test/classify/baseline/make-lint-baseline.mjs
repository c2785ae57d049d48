// Writes test/classify/baseline/lint-baseline.json: lintRegex's issues and compileJavaPattern's
// result for a corpus of patterns, as produced by the implementation BEFORE the lint was made fast
// (commit ded9472, the straightforward one: range lists re-sorted on every union, every literal folded by
// scanning 26 letters, lint compiling the JS RegExp). lint-baseline.test.ts requires the current
// code to give exactly the same answers, so optimisations cannot change any result.
//
// Corpus: every string literal in the classify tests (patterns and messages alike), the regexes of
// the real parsers, of examples/ and of the YAML under test/, a few of bench/validate.mjs's
// generated patterns, and a seeded random set built from Java regex constructs (classes with
// ranges, negation, nesting and &&, escapes, properties, inline flags, groups of every kind,
// quantifiers of every mode, back references, anchors, \Q..\E), valid and invalid alike.
//
// Regenerate only from the old implementation, never from the code under test: `git worktree add
// /tmp/old ded9472`, `npx tsc -p .` there, then
// `node test/classify/baseline/make-lint-baseline.mjs /tmp/old/dist` from this checkout.
//
// When answers change ON PURPOSE (Java 17 fidelity, issue 15; the lint policy, issue 11), re-answer
// the SAME corpus with the reviewed code: `npx tsc -p . && node test/classify/baseline/
// make-lint-baseline.mjs dist --reuse-corpus <reason>`; review the diff of lint-baseline.json
// pattern by pattern before committing it (docs/regex.md records what changed and why).
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const dist = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
const { lintRegex } = await import(pathToFileURL(path.join(dist, 'classify/lint.js')).href);
const { compileJavaPattern } = await import(pathToFileURL(path.join(dist, 'classify/java-regex.js')).href);

const patterns = new Set();
const reuse = process.argv.includes('--reuse-corpus');
const previous = JSON.parse(readFileSync(path.join(HERE, 'lint-baseline.json'), 'utf8'));
if (reuse) for (const c of previous.cases) patterns.add(c.pattern);

// String literals of the classify tests ('...' and "..."), evaluated as JS.
for (const f of readdirSync(path.join(ROOT, 'test/classify')).filter((n) => n.endsWith('.ts'))) {
  const src = readFileSync(path.join(ROOT, 'test/classify', f), 'utf8');
  for (const m of src.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g)) {
    try { patterns.add(new Function(`return ${m[0]};`)()); } catch { /* not a plain literal */ }
  }
}

for (const line of readFileSync(path.join(ROOT, 'test/fixtures/real-parsers.tsv'), 'utf8').split('\n').slice(1)) {
  const regex = line.split('\t')[1];
  if (regex) patterns.add(regex);
}

function yamlFiles(dir) {
  const out = [];
  for (const n of readdirSync(dir)) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(n)) out.push(p);
  }
  return out;
}
for (const f of [...yamlFiles(path.join(ROOT, 'examples')), ...yamlFiles(path.join(ROOT, 'test'))]) {
  for (const m of readFileSync(f, 'utf8').matchAll(/^\s*-?\s*regex:\s*(.+)$/gm)) {
    try {
      const v = parseYaml(m[1]);
      if (typeof v === 'string') patterns.add(v);
    } catch { /* a deliberately broken file */ }
  }
}

for (let i = 0; i < 20; i++) patterns.add(`.*Reply ${i % 5} for ${i}: balance UGX (?<balance${i % 5}>\\d+)\\.`);

// Seeded random patterns (mulberry32), so the corpus is reproducible.
let seed = 0x5eed;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];

const LITERALS = ['a', 'b', 'z', 'A', 'Z', 'k', 'K', 'x', '0', '7', ' ', ',', ':', '-', "'", '@', '#', 'é', 'É', 'ß', 'ÿ', '😀', 'ſ', 'K', 'UGX ', 'Ksh', 'PIN', 'balance'];
const ESCAPES = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\h', '\\H', '\\v', '\\V', '\\.', '\\,', '\\-', '\\\\', '\\t', '\\n', '\\r', '\\f', '\\a', '\\e',
  '\\x41', '\\x7a', '\\x{e9}', '\\x{1F600}', '\\u00e9', '\\u0041', '\\uD83D\\uDE00', '\\0101', '\\07', '\\cA', '\\p{Alpha}', '\\p{Lower}', '\\P{Upper}',
  '\\p{Punct}', '\\p{XDigit}', '\\P{Digit}', '\\p{ASCII}', '\\p{Cntrl}', '\\p{L1}', '\\p{all}', '\\p{L}', '\\pL', '\\p{IsAlphabetic}', '\\p{javaLowerCase}',
  '\\p{Foo}', '\\y', '\\Qa.b\\E', '\\Q1+\\E', '\\X', '\\N{LATIN SMALL LETTER A}'];
const ASSERTS = ['^', '$', '\\b', '\\B', '\\A', '\\z', '\\Z', '\\G', '\\R'];
const CLASS_ITEMS = ['a', 'z', 'A', 'a-z', 'A-Z', 'a-f', 'F-k', '0-9', '\\d', '\\w', '\\s', '\\S', '\\W', '\\D', '\\h', '\\v', ',', '.', '\\.', '\\-', '-',
  'à-ÿ', 'é', 'É', '😀-😂', '\\x41-\\x5a', '\\u00c0-\\u00ff', '\\p{Alpha}', '\\p{Lower}', '\\P{Punct}', '\\p{L}', '[abc]', '[^x]', '[a-c[x-z]]', '&&[^aeiou]',
  '&&\\w', '&&b', '_', ' ', '\\Q]\\E', '@-Z', '[-`'];
const FLAGS = ['(?i)', '(?-i)', '(?s)', '(?m)', '(?is)', '(?-is)', '(?x)', '(?u)', '(?U)', '(?d)', '(?c)', '(?)'];
const OPEN = ['(', '(?:', '(?<g>', '(?<h>', '(?=', '(?!', '(?<=', '(?<!', '(?>', '(?i:', '(?-i:', '(?s:', '(?m:', '(?<bal_1>', '(?<1a>'];
const QUANTS = ['*', '+', '?', '{2}', '{1,3}', '{2,}', '{0,1}', '{3,2}', '{', '*?', '+?', '??', '{1,2}?', '*+', '++', '?+', '{2,}+'];

function cls() {
  let s = rnd() < 0.3 ? '[^' : '[';
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) s += pick(CLASS_ITEMS);
  return rnd() < 0.03 ? s : `${s}]`;
}

function atom(depth) {
  const r = rnd();
  if (r < 0.3) return pick(LITERALS);
  if (r < 0.45) return pick(ESCAPES);
  if (r < 0.6) return cls();
  if (r < 0.68) return '.';
  if (r < 0.74) return pick(ASSERTS);
  if (r < 0.78) return pick(FLAGS);
  if (r < 0.81) return `\\${1 + Math.floor(rnd() * 3)}`;
  if (r < 0.83) return pick(['\\k<g>', '\\k<h>', '\\k<nope>']);
  if (depth > 2) return pick(LITERALS);
  const close = rnd() < 0.03 ? '' : ')';
  return `${pick(OPEN)}${expr(depth + 1)}${close}`;
}

function expr(depth) {
  const alts = rnd() < 0.2 ? 2 + Math.floor(rnd() * 2) : 1;
  const out = [];
  for (let a = 0; a < alts; a++) {
    let s = '';
    const n = 1 + Math.floor(rnd() * (depth === 0 ? 7 : 3));
    for (let i = 0; i < n; i++) {
      s += atom(depth);
      if (rnd() < 0.35) s += pick(QUANTS);
    }
    out.push(s);
  }
  return out.join('|');
}

for (let i = 0; i < 3000; i++) patterns.add(expr(0));

// Shapes the backtracking and faithfulness checks look for, filled with random pieces: nested and
// adjacent repetitions, repeated alternations, captures inside repetitions, back references.
const PIECE = () => pick([pick(LITERALS), pick(ESCAPES.slice(0, 20)), cls(), '.', `(?:${pick(LITERALS)}${pick(['', '?', '+'])})`]);
const Q = () => pick(['*', '+', '{2,}', '?', '{1,3}', '*?', '++', '*+']);
const SHAPES = [
  () => `(${PIECE()}${Q()}${PIECE()}${pick(['', '?', '*'])})${Q()}`,
  () => `(?:${PIECE()}|${PIECE()})${Q()}`,
  () => `${PIECE()}${Q()}${PIECE()}${Q()}`,
  () => `.*${PIECE()}${Q()}${pick(['', ' ', '(?:x)?'])}${PIECE()}${Q()}.*`,
  () => `(?<v>${PIECE()}${Q()})${pick(['.*', '.*?', '\\.', '$', ''])}`,
  () => `(?:(?<a>${PIECE()})${pick(['|', '?', ''])}${PIECE()})${Q()}`,
  () => `${pick(['(?-i)', '', '(?i)'])}(${PIECE()})${pick(['?', '', '*'])}${PIECE()}\\1`,
  () => `(?>${PIECE()}${Q()})${Q()}`,
  () => `${pick(['^', '\\A', ''])}${PIECE()}${Q()}${pick(['$', '\\z', '\\Z', ''])}`,
];
for (let i = 0; i < 1500; i++) patterns.add(pick(SHAPES)());

const summary = (c) => (c.ok
  ? { ok: true, source: c.regex.source, flags: c.regex.flags, groups: c.groups, unfaithful: c.unfaithful }
  : { ok: false, issues: c.issues });

const corpus = reuse ? previous.cases.map((c) => c.pattern) : [...patterns];
const cases = corpus.map((pattern) => ({ pattern, lint: lintRegex(pattern), compile: summary(compileJavaPattern(pattern)) }));
const counts = { total: cases.length, error: 0, unfaithful: 0, faithful: 0, withWarnings: 0 };
for (const c of cases) {
  if (!c.compile.ok) counts.error++;
  else if (c.compile.unfaithful.length > 0) counts.unfaithful++;
  else counts.faithful++;
  if (c.lint.some((i) => i.severity === 'warning')) counts.withWarnings++;
}
const generatedFrom = reuse ? `${previous.generatedFrom}, re-answered: ${process.argv.slice(process.argv.indexOf('--reuse-corpus') + 1).join(' ')}` : 'ded9472';
writeFileSync(path.join(HERE, 'lint-baseline.json'), `${JSON.stringify({ generatedFrom, counts, cases }, null, 0).replace(/\},\{"pattern"/g, '},\n{"pattern"')}\n`);
console.log(counts);
