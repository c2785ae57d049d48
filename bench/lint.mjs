// Benchmark: the Java-dialect regex lint alone (lintRegex, src/classify/lint.ts), on the 25,000
// distinct patterns of bench/validate.mjs's generated config and on variants of the real parsers
// (test/fixtures/real-parsers.tsv). Every pattern is distinct in every run, so no cache helps:
// this is the cost `menuctl validate` pays per distinct regex. Also the translation `menuctl test`
// needs (compileJavaPattern: JS source + RegExp), once per distinct pattern.
// Run: npx tsc -p . && node bench/lint.mjs   (prints the "## regex lint" rows for docs/benchmarks.md)
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintRegex } from '../dist/classify/lint.js';
import { compileJavaPattern } from '../dist/classify/java-regex.js';

const ACTIONS = 5000;
const PARSERS = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const REAL_VARIANTS = 400;
const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The regexes bench/validate.mjs writes, offset per run so that no run sees another's patterns. */
function generated(run) {
  const out = [];
  for (let i = run * ACTIONS; i < (run + 1) * ACTIONS; i++) {
    for (let p = 0; p < PARSERS; p++) out.push(`.*Reply ${p} for ${i}: balance UGX (?<balance${p}>\\d+)\\.`);
  }
  return out;
}

function realRows() {
  const file = path.join(ROOT, 'test/fixtures/real-parsers.tsv');
  const [, ...rows] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  return rows.map((line) => line.split('\t')[1]);
}

/** Each real regex with a distinct literal prefix (a run and variant number), so each is linted anew. */
function realVariants(run, rows) {
  const out = [];
  for (let v = 0; v < REAL_VARIANTS; v++) for (const r of rows) out.push(`R${run}v${v}${r}`);
  return out;
}

/** Wall time, and CPU time of the process (all threads, so GC helpers count): the machine is shared
 * and under load wall time also counts waiting for a core. */
function time(patterns, f = (p) => lintRegex(p).length) {
  let issues = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const p of patterns) issues += f(p);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, issues };
}

const rows = realRows();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gen = [];
const real = [];
const genCpu = [];
const realCpu = [];
const comp = [];
const compCpu = [];
const COMPILED = 5000;
const compileOne = (p) => (compileJavaPattern(p).ok ? 0 : 1);
let genIssues = 0;
let realIssues = 0;
// One unmeasured warm-up run (JIT), on its own distinct patterns.
time(generated(RUNS));
time(realVariants(RUNS, rows));
time(generated(RUNS + 1).slice(0, COMPILED), compileOne);
for (let run = 0; run < RUNS; run++) {
  const g = generated(run);
  const r = realVariants(run, rows);
  const tg = time(g);
  const tr = time(r);
  gen.push((tg.ms * 1000) / g.length);
  real.push((tr.ms * 1000) / r.length);
  genCpu.push((tg.cpuMs * 1000) / g.length);
  realCpu.push((tr.cpuMs * 1000) / r.length);
  const c = generated(RUNS + 2 + run).slice(0, COMPILED);
  const tc = time(c, compileOne);
  comp.push((tc.ms * 1000) / c.length);
  compCpu.push((tc.cpuMs * 1000) / c.length);
  genIssues = tg.issues;
  realIssues = tr.issues;
}
const us = (x) => x.toFixed(1);
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
console.log('| patterns | median wall / pattern | fastest run | median CPU / pattern | whole set (median wall) | issues |');
console.log('|---|---|---|---|---|---|');
console.log(`| generated (${ACTIONS * PARSERS} distinct, bench/validate.mjs's) | ${us(median(gen))} µs | ${us(Math.min(...gen))} µs | ${us(median(genCpu))} µs | ${((median(gen) * ACTIONS * PARSERS) / 1000).toFixed(0)} ms | ${genIssues} |`);
console.log(`| real parsers (${rows.length} rows x ${REAL_VARIANTS} prefixed variants) | ${us(median(real))} µs | ${us(Math.min(...real))} µs | ${us(median(realCpu))} µs | ${((median(real) * rows.length * REAL_VARIANTS) / 1000).toFixed(0)} ms | ${realIssues} |`);
console.log(`| compile for menuctl test (${COMPILED} of the generated, distinct) | ${us(median(comp))} µs | ${us(Math.min(...comp))} µs | ${us(median(compCpu))} µs | ${((median(comp) * COMPILED) / 1000).toFixed(0)} ms | |`);
console.log(`runs ${RUNS} (+1 warm-up); machine ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${load}`);
console.log(`per run: generated ${gen.map(us).join(', ')} µs; real ${real.map(us).join(', ')} µs`);
