#!/usr/bin/env node
// Start-up cost of the CLI: wall time of short invocations (--version, --help, each command's
// --help, validate on the examples) in fresh processes, and what importing each command's module
// costs on its own. Needs `npm run build`. Medians of RUNS fresh processes each; on a loaded
// machine compare rows of one run, not runs of different days.
//
//   node bench/startup.mjs [--runs N]

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAIN, ROOT } from './lib/paths.mjs';
import { median } from './lib/stats.mjs';

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag === -1 ? 9 : Number(process.argv[runsFlag + 1]);
const COMMANDS = ['validate', 'test', 'plan', 'apply', 'drift', 'export', 'operators', 'serve', 'token', 'demo'];
// What registering a command's flags costs (what `--help` loads): the light modules main.ts lists.
const REGISTERS = { plan: 'plan-command', apply: 'apply-command', drift: 'drift-command', export: 'export-command' };

/** CPU ms of this process's waited-for children so far (Linux: cutime + cstime, in clock ticks). */
function childrenCpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
  const TICKS_PER_SECOND = 100;
  return (Number(fields[13]) + Number(fields[14])) * (1000 / TICKS_PER_SECOND);
}

function wall(args) {
  const times = [];
  const cpu0 = childrenCpuMs();
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = process.hrtime.bigint();
    try { execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' }); } catch { /* exit codes do not matter here */ }
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { wall: median(times), cpu: (childrenCpuMs() - cpu0) / RUNS };
}

/** ms to import one module in a fresh process, measured inside it (no process start-up). */
function importCost(file) {
  const code = `const t0 = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t0));`;
  const times = [];
  for (let i = 0; i < RUNS; i += 1) times.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' })));
  return median(times);
}

const rows = [
  ['node -e 0 (Node start-up alone)', wall(['-e', '0'])],
  ['menuctl --version', wall([MAIN, '--version'])],
  ['menuctl --help', wall([MAIN, '--help'])],
  ['menuctl validate examples/', wall([MAIN, 'validate', 'examples/'])],
  ...COMMANDS.map((c) => [`menuctl ${c} --help`, wall([MAIN, c, '--help'])]),
];
process.stdout.write(`## start-up (${RUNS} fresh processes each)\n\n| invocation | median wall ms | mean CPU ms |\n|---|---:|---:|\n`);
for (const [name, t] of rows) process.stdout.write(`| \`${name}\` | ${t.wall.toFixed(0)} | ${t.cpu.toFixed(0)} |\n`);
process.stdout.write(`\n| command | module imported alone (its flags) | ms | its handler | ms |\n|---|---|---:|---|---:|\n`);
for (const c of COMMANDS) {
  const flags = REGISTERS[c] ?? c;
  const handler = REGISTERS[c] === undefined ? '(same)' : `dist/cli/${c}.js`;
  const handlerMs = REGISTERS[c] === undefined ? '' : importCost(join(ROOT, 'dist/cli', `${c}.js`)).toFixed(0);
  process.stdout.write(`| ${c} | dist/cli/${flags}.js | ${importCost(join(ROOT, 'dist/cli', `${flags}.js`)).toFixed(0)} | ${handler} | ${handlerMs} |\n`);
}
