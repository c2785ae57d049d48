#!/usr/bin/env node
// Benchmark: `menuctl analyze`, and the linear-time match decision it shares with `menuctl test`.
//   1. examples/ (the shipped configs): must take well under a second.
//   2. a generated config of 1,000 actions x 5 parsers (10,000 same-channel pairs), realistic shapes:
//      most pairs disjoint, one overlapping pair per action (a witness is built and checked for
//      each), one shadowed, some sms parsers with other senders. Target: under 10 s.
//   3. `menuctl test` on realistic shapes that backtrack badly on a reply that does not match
//      ((?:\w+\s?)*Ksh, (?<name>(?:[A-Z]+\s?)+)\d): wall time per fixture (issue 15 item 7).
// Each is run as the real CLI in a child process (wall time and peak RSS of that process).
// Run: npm run build && node bench/analyze.mjs [--runs N]   (the machine may be loaded: see the load average printed)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MAIN, ROOT, scratchDir } from './lib/paths.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, actions: { type: 'string', default: '1000' } } });
const RUNS = Number(values.runs);
const ACTIONS = Number(values.actions);
const dir = scratchDir('analyze');

/** Wall time and peak RSS of one CLI run (GNU time's %M when present, else none). */
function runCli(args, expectExit) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, MAIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (expectExit !== undefined && r.status !== expectExit) throw new Error(`menuctl ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const rssKb = Number(r.stderr.trim().split('\n').pop());
  return { ms, rssMb: Number.isFinite(rssKb) ? rssKb / 1024 : NaN, stdout: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(label, args, expectExit) {
  const times = [];
  const rss = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    last = runCli(args, expectExit);
    times.push(last.ms);
    rss.push(last.rssMb);
  }
  console.log(`| ${label} | ${median(times).toFixed(0)} ms | ${Math.max(...rss).toFixed(0)} MB |`);
  return last;
}

function generated(actions) {
  const lines = ['version: 1', 'actions:'];
  for (let i = 0; i < actions; i++) {
    lines.push(
      `  - name: Action ${i}`, `    root_code: "*${100 + (i % 800)}#"`, '    transport_type: ussd', '    operators: [2172]',
      '    steps: [{ press: 1 }]', '    parsers:',
      `      - { category: balance, status: succeeded, regex: 'Your balance for ${i} is (?<amount>[\\d,.]+) ?(?:KES|UGX)\\.?.*' }`,
      `      - { category: empty, status: failed, regex: '(?:Your balance for ${i} is|Solde ${i}) 0\\.00 KES.*' }`,
      `      - { category: pin, status: failed, regex: '.*\\bwrong PIN\\b.*' }`,
      `      - { category: pin-exact, status: pending, regex: 'You entered a wrong PIN\\.' }`,
      `      - { category: sms, status: succeeded, target_type: sms, sender: MPESA, regex: '(?<code>[A-Z0-9]{10}) Confirmed\\. Ksh(?<amount>[\\d,.]+) sent to .*' }`,
      '    tests:',
      `      - { message: "Your balance for ${i} is 1,200.00 KES", expect: { category: balance } }`,
      `      - { message: "You entered a wrong PIN.", expect: { category: pin-exact } }`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function slowShapes() {
  const shapes = [
    ['(?:\\w+\\s?)*Ksh', 'Your M-PESA balance is one thousand two hundred shillings and zero cents KES'],
    ['(?<name>(?:[A-Z]+\\s?)+)\\d', 'CONFIRMED YOU HAVE RECEIVED MONEY FROM JOHN DOE OF NAIROBI KENYA'],
    ['(?:\\w+\\s?)*Ksh', 'Dear customer your transaction of today could not be completed please retry later'],
  ];
  const lines = ['version: 1', 'actions:', '  - name: Slow', '    root_code: "*1#"', '    transport_type: ussd', '    operators: [2172]',
    '    steps: [{ press: 1 }]', '    parsers:'];
  shapes.forEach(([re], i) => lines.push(`      - { category: p${i}, status: succeeded, regex: '${re}' }`));
  lines.push('    tests:');
  for (const [, msg] of shapes) lines.push(`      - { message: "${msg}", expect: none }`);
  return { text: `${lines.join('\n')}\n`, fixtures: shapes.length };
}

console.log(`# menuctl analyze (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; median of ${RUNS} runs, peak RSS)`);
console.log('| case | wall | peak RSS |\n|---|---|---|');
measure('analyze examples/', ['analyze', 'examples', '--format', 'json']);
const big = join(dir, 'big.yaml');
writeFileSync(big, generated(ACTIONS));
const out = measure(`analyze ${ACTIONS} actions x 5 parsers (${ACTIONS * 10} pairs)`, ['analyze', big, '--format', 'json']);
const kinds = {};
for (const f of JSON.parse(out.stdout).findings) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
console.log(`\nfindings on the generated config: ${JSON.stringify(kinds)}`);
const slow = join(dir, 'slow.yaml');
const s = slowShapes();
writeFileSync(slow, s.text);
console.log('\n| case | wall | peak RSS |\n|---|---|---|');
const t = measure(`menuctl test, ${s.fixtures} non-matching replies on backtracking-prone shapes (--timeout 60000)`, ['test', slow, '--timeout', '60000', '--format', 'json']);
const results = JSON.parse(t.stdout);
const list = Array.isArray(results) ? results : results.results ?? [];
console.log(`fixture statuses: ${list.map((r) => r.status).join(', ')}`);
