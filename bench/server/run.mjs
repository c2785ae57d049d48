// Benchmark of the reference server: starts `menuctl serve --port 0` as a child process on a
// temporary database, seeds it, then runs bench/server/load.mjs (another process) for reads and
// writes at a few concurrency levels. Prints a markdown table; docs/benchmarks.md "## server"
// records a run. Needs dist/ (npx tsc -p .).
//
//   node bench/server/run.mjs [--duration 5] [--levels 8,32,64] [--no-access-log]

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    levels: { type: 'string', default: '8,32,64' },
    'no-access-log': { type: 'boolean', default: false },
  },
});
const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'menuctl-bench-'));
const data = join(dir, 'bench.sqlite');
const secret = 'bench-secret-not-for-production';
const loadBefore = loadavg()[0].toFixed(2);

const serverArgs = [MAIN, 'serve', '--port', '0', '--data', data, '--jwt-secret', secret];
if (a['no-access-log']) serverArgs.push('--no-access-log');
const server = spawn(process.execPath, serverArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((done, fail) => {
  const rl = createInterface({ input: server.stdout });
  // Keep draining stdout (the access log) so the server never blocks on a full pipe.
  rl.once('line', (line) => {
    const m = /listening on (\S+)$/.exec(line);
    m ? done(m[1]) : fail(new Error(line));
  });
  rl.on('line', () => {});
  server.once('exit', (c) => fail(new Error(`serve exited ${c}`)));
});

try {
  const token = execFileSync(process.execPath, [MAIN, 'token', '--org', '1', '--jwt-secret', secret]).toString().trim();
  const auth = { authorization: token, 'content-type': 'application/json' };
  const actionBody = (i) => JSON.stringify({ custom_action: {
    name: `Bench ${i}`, root_code: '*144#', transport_type: 'ussd', world_operator_ids: ['2172', '2173'],
    custom_steps_attributes: {
      0: { order: '0', is_param: 'false', convert_val_to_num: 'false', value: '1', expected_text: 'My account', description: '' },
      1: { order: '1', is_param: 'true', convert_val_to_num: 'false', value: 'phone', description: '' },
      2: { order: '2', is_param: 'false', convert_val_to_num: 'false', value: 'pin', description: '' },
    },
  } });
  let actionId;
  for (let i = 0; i < 20; i++) {
    const r = await fetch(`${url}/api/actions`, { method: 'POST', headers: auth, body: actionBody(i) });
    actionId = (await r.json()).data.id;
  }
  const parserTemplate = JSON.stringify({ parser: {
    action_id: actionId, status: 'succeeded', regex: 'Your balance is (?<balance>[\\d,.]+).*', category: 'balance-{n}', user_message: 'Balance {balance}',
  } });

  // The server's CPU time (user + system) from /proc: per request, it measures the server's cost
// independently of whatever else the machine is running (throughput alone does not, on a
// shared 2-core machine). Linux only; elsewhere the column stays empty.
const TICKS_PER_SECOND = 100;
const WARMUP_S = 0.5;
function serverCpuMs() {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

const scenarios = [
    { label: 'GET one action', method: 'GET', path: `/api/actions/${actionId}` },
    { label: 'GET list (20 actions)', method: 'GET', path: '/api/actions' },
    { label: 'POST action (3 steps)', method: 'POST', path: '/api/actions', body: actionBody('{n}') },
    { label: 'POST parser', method: 'POST', path: '/api/parsers', body: parserTemplate },
  ];
  const rows = [];
  let run = 0;
  for (const s of scenarios) {
    for (const c of a.levels.split(',').map(Number)) {
      // Unique categories across runs: each run restarts the {n} counter.
      const body = s.body?.replaceAll('{n}', `${run++}-{n}`);
      const args = [join(ROOT, 'bench/server/load.mjs'), '--url', url, '--method', s.method, '--path', s.path,
        '--concurrency', String(c), '--duration', a.duration, '--max', '200000', '--warmup', String(WARMUP_S)];
      if (body) args.push('--body', body);
      const cpu0 = serverCpuMs();
      const out = execFileSync(process.execPath, args, { env: { ...process.env, MENUCTL_TOKEN: token } }).toString();
      const cpu = serverCpuMs() - cpu0;
      const row = JSON.parse(out);
      // Warm-up requests are included in the CPU time, so this slightly overstates the cost.
      row.cpuUsPerReq = Number.isNaN(cpu) ? '' : Math.round((cpu * 1000) / (row.requests * (1 + WARMUP_S / Number(a.duration))));
      rows.push({ label: s.label, ...row });
      process.stderr.write(`${s.label} c=${c}: ${out}`);
    }
  }
  const cpu = cpus();
  console.log(`Machine: ${cpu.length} cores, ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; access log ${a['no-access-log'] ? 'off' : 'on (piped)'}; ${a.duration} s per row; load average before/after ${loadBefore} / ${loadavg()[0].toFixed(2)}\n`);
  console.log('| scenario | concurrency | requests | req/s | p50 ms | p95 ms | p99 ms | server CPU µs/req | statuses |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(`| ${r.label} | ${r.concurrency} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.cpuUsPerReq} | ${Object.entries(r.statuses).map(([k, v]) => `${k}: ${v}`).join(', ')} |`);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}

// Tenant fairness (issue 10, item 4) seeds a database of its own: bench/server/fairness.mjs.
console.log('\n### tenant fairness\n');
execFileSync(process.execPath, [join(ROOT, 'bench/server/fairness.mjs'), '--duration', a.duration], { stdio: 'inherit' });
