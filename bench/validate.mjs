// Benchmark: validating a generated config of 5,000 actions x 5 parsers (with fixtures), one 5 MiB file.
// Run: npx tsc -p . && node bench/validate.mjs      (BENCH_RUNS=5 by default)
// Prints a markdown table for the "## validate" section of docs/benchmarks.md (written by hand
// there, with the analysis). Three views, because they answer different questions:
//  - `menuctl validate` end to end: a new node process per run (start-up, module load, cold JIT,
//    ajv compile, output), what a user or CI job waits for;
//  - loadConfig in a fresh process: the same minus start-up, with the kernel's peak RSS for the
//    whole process (exact, not sampled);
//  - loadConfig warm: later runs in one process (JIT hot, ajv compiled), the steady-state cost.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configWithFixtures } from './lib/config-world.mjs';

const ACTIONS = 5000;
const PARSERS = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ENV = { MENUCTL_VAR_HOOK: 'https://hooks.example.com/x' };
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

const generate = () => configWithFixtures(ACTIONS, PARSERS);

/** Child mode: one loadConfig in this fresh process; prints its measures as JSON. */
async function child(file) {
  const { loadConfig } = await import('../dist/config/load.js');
  const c0 = cpuMs();
  const t0 = performance.now();
  const result = await loadConfig([file], { env: ENV, cwd: path.dirname(file) });
  const ms = performance.now() - t0;
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  process.stdout.write(JSON.stringify({ ms, cpu: cpuMs() - c0, rssMB: process.resourceUsage().maxRSS / 1024, errors, warnings: result.diagnostics.length - errors, ok: result.state !== null }));
}

async function warm(file, runs) {
  const { loadConfig } = await import('../dist/config/load.js');
  const times = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const result = await loadConfig([file], { env: ENV, cwd: path.dirname(file) });
    times.push(performance.now() - t0);
    if (!result.state) throw new Error(`generated config did not validate: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  }
  return times;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-bench-'));
  const file = path.join(dir, 'big.yaml');
  writeFileSync(file, generate());
  const bytes = readFileSync(file).length;
  const load0 = loadavg()[0];
  const cli = [];
  const fresh = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'validate', file], { env: { ...process.env, ...ENV }, encoding: 'utf8' });
    cli.push(performance.now() - t0);
    if (p.status !== 0) throw new Error(`menuctl validate exited ${p.status}: ${p.stderr.slice(0, 500)}`);
    const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', file], { encoding: 'utf8' });
    if (c.status !== 0) throw new Error(c.stderr);
    fresh.push(JSON.parse(c.stdout));
  }
  const warmTimes = await warm(file, RUNS + 1);
  warmTimes.shift(); // the first in-process run is a fresh one again
  const load1 = loadavg()[0];
  rmSync(dir, { recursive: true, force: true });
  const f = fresh[0];
  const lines = [
    `Generated file: ${ACTIONS} actions x ${PARSERS} parsers (${ACTIONS * PARSERS} parsers, ${ACTIONS} fixtures), ${(bytes / 1024 / 1024).toFixed(1)} MiB; ${RUNS} runs each, median (range).`,
    '',
    '| measure | median | range |',
    '|---|---|---|',
    `| \`menuctl validate\` end to end (new process) | ${median(cli).toFixed(0)} ms | ${range(cli)} ms |`,
    `| loadConfig in a fresh process (wall) | ${median(fresh.map((x) => x.ms)).toFixed(0)} ms | ${range(fresh.map((x) => x.ms))} ms |`,
    `| loadConfig in a fresh process (CPU, all threads) | ${median(fresh.map((x) => x.cpu)).toFixed(0)} ms | ${range(fresh.map((x) => x.cpu))} ms |`,
    `| loadConfig warm (same process, after one run) | ${median(warmTimes).toFixed(0)} ms | ${range(warmTimes)} ms |`,
    `| peak RSS of the fresh process | ${median(fresh.map((x) => x.rssMB)).toFixed(0)} MB | ${range(fresh.map((x) => x.rssMB))} MB |`,
    `| diagnostics | ${f.errors} errors, ${f.warnings} warnings | |`,
    '',
    `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; 1-minute load average ${load0.toFixed(1)} before, ${load1.toFixed(1)} after.`,
  ];
  console.log(lines.join('\n'));
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else await main();
