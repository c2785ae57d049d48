// Benchmark: `sessions import` scrubbing (src/sessions/scrub.ts) on long and hostile text, to keep
// every rule linear in the text's length: a webhook record is user data of any size.
// Run: npm run build && node bench/scrub.mjs   (BENCH_RUNS=3 by default)
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/paths.mjs';
import { median, table } from './lib/stats.mjs';

const { scrubText } = await import(pathToFileURL(join(ROOT, 'dist', 'sessions', 'scrub.js')).href);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const CASES = [
  ['a realistic SMS, 1 KB', 'Dear John Kamau, Ksh500.00 sent to PETER OTIENO 0722000111 on 2/10/23. '.repeat(14)],
  ['50,000 digits in one run', '7'.repeat(50_000)],
  ['5,000 spaced phone numbers (55 KB)', '0712345678 '.repeat(5_000)],
  ['50,000 Arabic-Indic digits', '٧'.repeat(50_000)],
  ['50,000 address characters without @', 'a.b+c-d_e'.repeat(5_556)],
  ['10,000 capitalised words after "to"', `sent to ${'JOHN '.repeat(10_000)}`],
  ['10,000 labels "NAME:"', 'NAME: JOHN KAMAU '.repeat(10_000)],
];

const rows = [];
for (const [name, text] of CASES) {
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    scrubText(text);
    ms.push(performance.now() - t0);
  }
  rows.push([name, `${(text.length / 1024).toFixed(0)} KB`, `${median(ms).toFixed(1)} ms`]);
}
console.log(`## scrub: sessions import scrubbing (median of ${RUNS})\n`);
console.log(table(['text', 'size', 'scrubText'], rows));
