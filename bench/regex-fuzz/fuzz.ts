// Differential fuzz of menuctl's Java regex evaluator against real java.util.regex (not a test:
// run by hand, JDK 17 on PATH). npx vite-node bench/regex-fuzz/fuzz.ts -- [count] [seed] [gen]
// gen: ast (structured patterns, 3 replies each sampled from the pattern), raw (token soup, mostly
// compile verdicts), seed (real parsers and the lint corpus, mutated replies). Prints each
// disagreement as JSON and writes them all to /tmp/regex-fuzz/bad-<gen>-<seed>.json.
import fc from 'fast-check';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { compileJavaPattern, namedValues } from '../../src/classify/java-regex.js';
import { replyObstacle } from '../../src/classify/reply-checks.js';
import { JavaOracle } from '../../test/classify/java-oracle.js';

const [countArg, seedArg, genArg] = process.argv.slice(2).filter((a) => a !== '--');
const COUNT = Number(countArg ?? 5000);
const SEED = Number(seedArg ?? 1);
const GEN = genArg ?? 'ast';

interface G { src: string; sample: (r: Rng, caps: Map<number, string>) => string }
class Rng {
  constructor(private s: number) {}
  next(): number { this.s = (this.s + 0x6d2b79f5) | 0; let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }
  int(n: number): number { return Math.floor(this.next() * n); }
  pick<T>(xs: readonly T[]): T { return xs[this.int(xs.length)]!; }
}

const POOL = ['a', 'A', 'b', 'B', 'c', 'z', 'Z', '_', '0', '1', '9', ' ', '\t', '\n', '\r', '\r\n', '\u000b', '\f', '\u0085', '\u2028', '\u2029',
  '\u00a0', '\u3000', '\u00e9', '\u00c9', '\u00df', '\u017f', '\u212a', '\u0131', '\u0130', '\u03c3', '\u03a3', '\u03c2', '\u0301', '\u0300',
  '\u{1F600}', '\u{1D400}', '\u{1D167}', '\ud83d', '\ude00', '\u0870', '\u0627', '\u0663', '\u4e00', '.', ',', '-', '[', ']', '(', ')', '{', '}',
  '\\', '^', '$', '|', '*', '+', '?', '#', '&', '<', '>', '=', '!', ':', "'", '"', '\u0000', '\u0001', '\u001b', '\u007f', '\u00ff', 'k', 'K', 's', 'S'];

const caseSwap = (s: string) => s.replace(/[a-zA-Z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
const lit = (c: string): G => ({ src: c, sample: (r) => (r.next() < 0.3 ? caseSwap(c) : c) });
const esc = (src: string, chars: string[]): G => ({ src, sample: (r) => { const c = r.pick(chars); return r.next() < 0.3 ? caseSwap(c) : c; } });
const any = (src: string): G => ({ src, sample: (r) => r.pick(POOL) });
const zero = (src: string): G => ({ src, sample: () => '' });

const ATOMS: G[] = [
  ...'abcAZ019 _,-:#&<>=!\'"'.split('').map(lit), lit('\u00e9'), lit('\u00c9'), lit('\u00df'), lit('\u017f'), lit('\u212a'), lit('\u0131'), lit('\u03c3'),
  lit('\u0301'), lit('\u{1F600}'), lit('\u{1D400}'), lit('\u4e00'), lit('\n'), lit('\r'), lit('\t'), lit('\u0085'), lit('\u2028'), lit('\u00a0'), lit('\ud83d'),
  esc('\\.', ['.']), esc('\\$', ['$']), esc('\\(', ['(']), esc('\\[', ['[']), esc('\\{', ['{']), esc('\\}', ['}']), esc('\\]', [']']), esc('\\\\', ['\\']), esc('\\-', ['-']),
  esc('\\t', ['\t']), esc('\\n', ['\n']), esc('\\r', ['\r']), esc('\\f', ['\f']), esc('\\a', ['\u0007']), esc('\\e', ['\u001b']),
  esc('\\0101', ['A', 'a']), esc('\\011', ['\t']), esc('\\0377', ['\u00ff']), esc('\\0400', [' 0']), esc('\\07', ['\u0007']), esc('\\x41', ['A', 'a']), esc('\\xe9', ['\u00e9']),
  esc('\\x{1F600}', ['\u{1F600}']), esc('\\x{D83D}', ['\ud83d']), esc('\\x{0}', ['\u0000']), esc('\\u00e9', ['\u00e9']), esc('\\u0041', ['a', 'A']), esc('\\uD83D\\uDE00', ['\u{1F600}']),
  esc('\\uD83D', ['\ud83d']), esc('\\cA', ['\u0001']), esc('\\ca', ['!']), esc('\\c?', ['\u007f']), esc('\\c@', ['\u0000']), esc('\\c[', ['\u001b']),
  esc('\\N{LATIN SMALL LETTER SHARP S}', ['\u00df']), esc('\\N{SPACE}', [' ']), esc('\\Qa.b\\E', ['a.b']), esc('\\Q1\\E', ['1']), esc('\\Q\\E', ['']),
  esc('\\d', ['0', '5', '\u0663']), esc('\\D', ['a', '\u0663', ' ']), esc('\\w', ['a', '_', '\u00e9', '9']), esc('\\W', ['-', '\u00e9', ' ']),
  esc('\\s', [' ', '\t', '\n', '\u000b', '\u00a0', '\u0085']), esc('\\S', ['a', '\u00a0']), esc('\\h', [' ', '\u00a0', '\u3000', '\t', '\n']),
  esc('\\H', ['a', ' ']), esc('\\v', ['\n', '\u000b', '\u2028', '\u0085', ' ']), esc('\\V', ['a', '\n']), esc('\\R', ['\r\n', '\n', '\r', '\u0085', '\u2028', '\u000b']),
  esc('\\p{L}', ['a', '\u00e9', '\u4e00', '1']), esc('\\p{Lu}', ['A', 'a', '\u00c9', '\u00e9']), esc('\\p{Ll}', ['a', 'A', '\u00df']), esc('\\pL', ['a', '1']), esc('\\PL', ['1', 'a']),
  esc('\\p{IsLatin}', ['a', '\u03c3']), esc('\\p{InGreek}', ['\u03c3', 'a']), esc('\\p{Alpha}', ['a', '\u00e9']), esc('\\p{Lower}', ['a', 'A']), esc('\\p{Upper}', ['A', 'a']),
  esc('\\p{Punct}', ['.', '\u00bf']), esc('\\p{Space}', [' ', '\u00a0']), esc('\\p{javaLowerCase}', ['a', 'A', '\u00e9']), esc('\\p{IsAlphabetic}', ['a', '\u0301']),
  esc('\\p{IsWhite_Space}', ['\u00a0', ' ']), esc('\\p{Sc}', ['$', '\u20ac']), esc('\\p{Mn}', ['\u0301']), esc('\\p{Cs}', ['\ud83d', '\u{1F600}']), esc('\\p{So}', ['\u{1F600}']),
  esc('\\p{ASCII}', ['a', '\u00e9']), esc('\\p{XDigit}', ['f', 'G']), esc('\\p{Cntrl}', ['\u0001']), esc('\\p{Graph}', ['a', ' ']), esc('\\p{Print}', [' ']), esc('\\p{Blank}', ['\t']),
  esc('\\p{IsDigit}', ['1', '\u0663']), esc('\\p{IsLetter}', ['a']), esc('\\p{Lt}', ['\u01c5', 'a']), esc('\\p{javaWhitespace}', [' ', '\u00a0', '\u001c']),
  any('.'), any('\\X'),
  zero('^'), zero('$'), zero('\\A'), zero('\\z'), zero('\\Z'), zero('\\G'), zero('\\b'), zero('\\B'), zero('\\b{g}'),
];

function classGen(r: Rng, depth: number): G {
  const items: string[] = [];
  const chars: string[] = [];
  const neg = r.next() < 0.25;
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const k = r.int(14);
    if (k < 4) { const c = r.pick(['a', 'z', 'A', '0', '9', '_', ' ', '\u00e9', '\u00c9', '\u{1F600}', '.', '$', '^', '(', '|', '#', '\u0301', '\ud83d', '\u212a']); items.push(c); chars.push(c); }
    else if (k < 6) { const [s, e, cs] = r.pick([['a', 'f', 'abcF'], ['A', 'Z', 'Qq'], ['0', '9', '05'], ['\u00e0', '\u00ff', '\u00e9\u00c9'], ['\\x{1F600}', '\\x{1F64F}', '\u{1F601}'], ['\\u0041', '\\u005a', 'Mm'], ['\\0141', 'z', 'mM'], ['!', '/', '#'], ['\\t', '\\r', '\n'], ['\\[', '\\]', '\\'], ['a', '\\Qz\\E', 'q']] as const); items.push(`${s}-${e}`); chars.push(...cs); }
    else if (k < 8) { const [e, cs] = r.pick([['\\d', '1'], ['\\w', 'a_'], ['\\s', ' \n'], ['\\S', 'x'], ['\\h', '\u00a0'], ['\\v', '\u2028'], ['\\W', '-'], ['\\p{L}', '\u00e9'], ['\\P{L}', '1'], ['\\p{Lu}', 'a'], ['\\pN', '2'], ['\\Q]-\\E', ']-'], ['\\n', '\n'], ['\\x{e9}', '\u00e9'], ['\\N{DIGIT ONE}', '1'], ['\\p{Punct}', '.']] as const); items.push(e); chars.push(...cs); }
    else if (k < 9 && depth < 2) { const g = classGen(r, depth + 1); items.push(g.src); chars.push(g.sample(r, new Map())); }
    else if (k < 10 && depth < 2 && i > 0) { const g = classGen(r, depth + 1); items.push('&&' + g.src); chars.push(g.sample(r, new Map())); }
    else if (k < 11 && i > 0) { const c = r.pick(['a', 'b', '[a-c]', '[^a]', '\\w']); items.push('&&' + c); }
    else if (k < 12) { items.push(r.pick(['-', '&', '&&', '^', ']', '[', '\\-', ' ', '#x'])); chars.push('-'); }
    else if (k < 13 && r.next() < 0.1) { items.push(r.pick(['\\b', '\\R', '\\X', '\\1', '\\k<a>', '\\Q\\E', '\\c', '\\x', '\\u12'])); }
    else { const c = r.pick(['a', 'B', '\u00e9']); items.push(c); chars.push(c); }
  }
  const src = `[${neg ? '^' : ''}${items.join('')}]`;
  return { src, sample: (rr) => (chars.length && rr.next() < 0.8 ? rr.pick(chars) : rr.pick(POOL)) };
}

const QUANTS = ['', '', '', '', '*', '+', '?', '{2}', '{0,1}', '{1,3}', '{2,}', '{0}', '{0,0}', '{1}', '*?', '+?', '??', '{1,2}?', '{2,}?', '*+', '++', '?+', '{1,3}+', '{2}+'];
const BAD_QUANTS = ['{,2}', '{2,1}', '{ 2}', '{2', '**', '{2}{3}', '{99999999999}'];

function quantify(g: G, r: Rng): G {
  const q = r.next() < 0.01 ? r.pick(BAD_QUANTS) : r.pick(QUANTS);
  if (q === '') return g;
  const m = /^([*+?]|\{(\d+)(,(\d*))?\})/.exec(q);
  let min = 0, max = 3;
  if (m) {
    if (m[1] === '*') { min = 0; max = 3; } else if (m[1] === '+') { min = 1; max = 3; } else if (m[1] === '?') { min = 0; max = 1; }
    else { min = Number(m[2]); max = m[3] === undefined ? min : m[4] === '' ? min + 2 : Number(m[4]); }
  }
  return { src: g.src + q, sample: (rr, caps) => { const n = Math.min(4, min + rr.int(Math.max(0, max - min) + 1)); let s = ''; for (let i = 0; i < n && s.length < 60; i++) s += g.sample(rr, caps); return s; } };
}

let groupNo = 0;
function node(r: Rng, depth: number, names: string[]): G {
  const k = r.int(depth > 2 ? 6 : 12);
  if (k < 4) return quantify(r.pick(ATOMS), r);
  if (k < 5) return quantify(classGen(r, 0), r);
  if (k < 6) {
    const refs = [`\\1`, `\\2`, `\\11`, ...names.map((n) => `\\k<${n}>`), '\\k<zz>', '\\0'];
    const ref = r.pick(refs);
    return quantify({ src: (r.next() < 0.5 ? '(?-i)' : '') + ref, sample: (rr, caps) => caps.get(1) ?? rr.pick(POOL) }, r);
  }
  const body = seq(r, depth + 1, names);
  const shapes = ['(%)', '(%)', '(?:%)', '(?<N>%)', '(?<N>%)', '(?i:%)', '(?-i:%)', '(?s:%)', '(?m:%)', '(?>%)', '(?=%)', '(?!%)', '(?<=%)', '(?<!%)', '(?:%|B)', '(%|)', '(?:|%)', '(?:%|B|)', '(?x:%)', '(?u:%)', '(?U:%)', '(?d:%)', '(?is-m:%)', '(?<a1>%)'];
  if (r.next() < 0.02) shapes.push('(?<_x>%)', '(?<1>%)', '(?<a_>%)', '(?P<a>%)', '(?<=%', '(?#%)');
  const shape = r.pick(shapes);
  let alt: G | null = null;
  if (shape.includes('B')) alt = seq(r, depth + 1, names);
  let src = shape.replace('%', body.src).replace('B', alt?.src ?? '');
  if (src.includes('<N>')) { const name = `g${++groupNo}`; names.push(name); src = src.replace('<N>', `<${name}>`); }
  const look = shape.startsWith('(?=') || shape.startsWith('(?!') || shape.startsWith('(?<=') || shape.startsWith('(?<!');
  const g: G = { src, sample: (rr, caps) => {
    if (look) return '';
    if (shape.includes('|') && !alt) return rr.next() < 0.5 ? '' : body.sample(rr, caps);
    if (alt && rr.next() < 0.5) return alt.sample(rr, caps);
    const s = body.sample(rr, caps); if (shape === '(%)' && !caps.has(1)) caps.set(1, s); return s;
  } };
  return quantify(g, r);
}

function seq(r: Rng, depth: number, names: string[]): G {
  const n = r.int(depth > 2 ? 2 : 4) + (depth === 0 ? 1 : 0);
  const parts: G[] = [];
  for (let i = 0; i < n; i++) {
    if (r.next() < 0.08) parts.push({ src: r.pick(['(?i)', '(?-i)', '(?s)', '(?m)', '(?-s)', '(?im)', '(?x)', '(?u)', '(?U)', '(?d)', '(?)', '(?-)', '(?i-i)']), sample: () => '' });
    else parts.push(node(r, depth, names));
  }
  const alt = r.next() < 0.15 && depth < 3 ? seq(r, depth + 1, names) : null;
  const src = parts.map((p) => p.src).join('') + (alt ? '|' + alt.src : '');
  return { src, sample: (rr, caps) => (alt && rr.next() < 0.4 ? alt.sample(rr, caps) : parts.map((p) => p.sample(rr, caps)).join('')) };
}

function mutate(s: string, r: Rng): string {
  const cps = [...s];
  const k = r.int(8);
  if (k === 0 && cps.length) cps.splice(r.int(cps.length), 1);
  else if (k === 1) cps.splice(r.int(cps.length + 1), 0, r.pick(POOL));
  else if (k === 2) return caseSwap(s);
  else if (k === 3) return s + r.pick(['\n', '\r\n', '\u0085', '\u2028', ' ', '.']);
  return cps.join('');
}

interface Case { pattern: string; message: string }
function astCases(count: number, seed: number): Case[] {
  const out: Case[] = [];
  const seeds = fc.sample(fc.integer(), { seed, numRuns: count });
  for (const s of seeds) {
    const r = new Rng(s);
    groupNo = 0;
    const g = seq(r, 0, []);
    const pre = r.pick(['', '', '', '.*', '(?s).*', '(?m)', '(?s)']);
    const post = r.pick(['', '', '', '.*', '[\\s\\S]*']);
    const pattern = pre + g.src + post;
    for (let i = 0; i < 3; i++) {
      let m = (pre.includes('.*') ? r.pick(['', 'x', 'Bal ']) : '') + g.sample(r, new Map()) + (post ? r.pick(['', ' end', '\n2']) : '');
      if (i === 2) m = mutate(m, r);
      if (m.length > 40) m = m.slice(0, 40);
      out.push({ pattern, message: m });
    }
  }
  return out;
}

const TOKENS = ['(', ')', '[', ']', '{', '}', '\\', 'a', 'B', '1', '2', '0', '?', '*', '+', '|', '^', '$', '-', '&&', '&', ',', '<', '>', '=', '!', ':', 'k', 'p', 'P', 'Q', 'E', 'x', 'u', 'c', 'N', '#', ' ', '\n', 'i', 's', 'm', 'd', 'U', 'b', 'g', 'R', 'X', 'L', '\u00e9', '\u{1F600}', '\ud83d', '.', 'w', 'D', 'h', 'v', 'z', 'Z', 'G', 'A', 'e', 'f', 't', 'n', 'r', '7', '9', '{L}', '{2}', '{1,}', '(?', '(?<', '[^'];
function rawCases(count: number, seed: number): Case[] {
  const arb = fc.tuple(fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 12 }), fc.array(fc.constantFrom(...POOL), { maxLength: 5 }));
  return fc.sample(arb, { seed, numRuns: count }).map(([t, m]) => ({ pattern: t.join(''), message: m.join('') }));
}

function seedCases(count: number, seed: number): Case[] {
  const rows = readFileSync('/work/shared/data/real-parsers.tsv', 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t'));
  const corpus = (JSON.parse(readFileSync(new URL('../../test/classify/baseline/lint-baseline.json', import.meta.url), 'utf8')) as { cases: { pattern: string }[] }).cases.map((c) => c.pattern);
  const msgs = rows.map((x) => (x[2] ?? '').replace(/\\n/g, '\n'));
  const r = new Rng(seed);
  const out: Case[] = [];
  for (const row of rows) for (let i = 0; i < 30; i++) out.push({ pattern: row[1]!, message: i === 0 ? msgs[rows.indexOf(row)]! : mutate(mutate(msgs[rows.indexOf(row)]!, r), r) });
  for (let i = 0; out.length < count; i++) out.push({ pattern: corpus[r.int(corpus.length)]!, message: r.next() < 0.5 ? r.pick(msgs) : Array.from({ length: r.int(8) }, () => r.pick(POOL)).join('') });
  return out;
}

const cases = GEN === 'raw' ? rawCases(COUNT, SEED) : GEN === 'seed' ? seedCases(COUNT, SEED) : astCases(COUNT, SEED);
const oracle = JavaOracle.compile();
const t0 = Date.now();
const java: ReturnType<typeof oracle.run> = [];
for (let i = 0; i < cases.length; i += 2000) {
  const chunk = cases.slice(i, i + 2000);
  try { java.push(...oracle.run(chunk)); } catch (e) {
    // One case can take the JVM down (deep recursion): judge this chunk one case at a time.
    for (const c of chunk) { try { java.push(...oracle.run([c])); } catch { java.push({ kind: 'exception', name: `JVM died: ${(e as Error).message.slice(0, 80)}` }); } }
  }
}
oracle.dispose();
const stats = { cases: cases.length, javaErrors: 0, faithful: 0, unfaithful: 0, matched: 0, mismatches: 0 };
const bad: unknown[] = [];
cases.forEach((x, i) => {
  const j = java[i]!;
  if (j.kind === 'error') stats.javaErrors++;
  const ours = compileJavaPattern(x.pattern);
  const report = (what: string, extra: object = {}) => { stats.mismatches++; bad.push({ what, pattern: x.pattern, message: x.message, java: j, ...extra }); };
  if (!ours.ok) {
    if (ours.issues.every((s) => s.severity === 'warning')) { stats.unfaithful++; return; }
    if (j.kind !== 'error') report('we reject, Java compiles', { ours: ours.issues.map((s) => s.message) });
    return;
  }
  if (j.kind === 'error') { report('Java rejects, we compile'); return; }
  if (j.kind === 'exception') { if (ours.unfaithful.length === 0) report('Java throws, we claim faithful'); return; }
  if (ours.unfaithful.length > 0 || replyObstacle(ours.needs, x.message) !== null) { stats.unfaithful++; return; }
  stats.faithful++;
  const m = ours.regex.exec(x.message);
  if ((m !== null) !== j.matches) { report('verdict', { ours: m !== null, js: ours.regex.source.slice(0, 400) }); return; }
  if (m && j.matches) {
    stats.matched++;
    const g = namedValues(m, ours.groups);
    if (JSON.stringify(g) !== JSON.stringify(Object.fromEntries(Object.entries(j.groups).sort()))) {
      const sorted = Object.fromEntries(Object.entries(g).sort());
      if (JSON.stringify(sorted) !== JSON.stringify(Object.fromEntries(Object.entries(j.groups).sort()))) report('groups', { ours: g });
    }
  }
});
console.error(JSON.stringify({ ...stats, ms: Date.now() - t0, gen: GEN, seed: SEED }));
mkdirSync('/tmp/regex-fuzz', { recursive: true });
writeFileSync(`/tmp/regex-fuzz/bad-${GEN}-${SEED}.json`, JSON.stringify(bad, null, 1));
for (const b of bad.slice(0, 40)) console.log(JSON.stringify(b));
