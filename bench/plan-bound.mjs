#!/usr/bin/env node
// Benchmark: how close to the I/O floor can a no-change plan get on this machine, whatever the
// client? Four fresh processes, interleaved run by run against one seeded server:
//   floor    the plan's 1,003 GETs by bare undici (bench/lib/floor-child.mjs);
//   seq      menuctl's config load (dist/config/load.js), then the same GETs by bare undici;
//   worker   the config load on the main thread while a worker thread makes the GETs;
//   plan     `menuctl plan --detailed-exitcode`;
//   plan-flow the same plan of the same config written in flow style (JSON-like, as generated
//            configs are; issue 25's "either style").
// seq and worker make neither menuctl's checks of the answers nor the plan, so they bound from
// below what any design that loads the config this way can reach. Issue 17; results in
// docs/benchmarks.md.
//
//   node bench/plan-bound.mjs [--actions 1000] [--parsers 5] [--runs 3] [--latency 0,20] [--concurrency 8]

import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import yaml from 'js-yaml';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { expectExit, runMenuctl, runNode } from './lib/cli.mjs';
import { makeAgent, planFloor } from './lib/http.mjs';
import { ROOT, scratchDir } from './lib/paths.mjs';
import { seededWorld, startServer } from './lib/server.mjs';
import { median, note, ratio, secs, table } from './lib/stats.mjs';

const opt = benchOptions();
const loadBefore = loadavg()[0];
const scratch = scratchDir('plan-bound');
const seeded = await seededWorld({ actions: opt.actions, parsers: opt.parsers, concurrency: opt.concurrency, scratch });
const { data, jwtSecret, token, cfg } = seeded;
await seeded.server.close();
const c = String(opt.concurrency);
// The same config in flow style: JSON is YAML's flow style.
const cfgFlow = join(scratch, 'flow.yaml');
writeFileSync(cfgFlow, `${JSON.stringify(yaml.load(readFileSync(cfg, 'utf8')), null, 2)}\n`);
const lib = (name) => join(ROOT, 'bench', 'lib', name);

const VARIANTS = [
  ['floor', (env, benchEnv) => runNode(lib('floor-child.mjs'), ['plan', '0', '0', c], { env: benchEnv, scratch })],
  ['seq', (env, benchEnv) => runNode(lib('bound-child.mjs'), ['seq', cfg, c], { env: benchEnv, scratch })],
  ['worker', (env, benchEnv) => runNode(lib('bound-child.mjs'), ['worker', cfg, c], { env: benchEnv, scratch })],
  ['plan', (env) => runMenuctl(['plan', cfg, '--detailed-exitcode', '--concurrency', c], { env, scratch })],
  ['plan-flow', (env) => runMenuctl(['plan', cfgFlow, '--detailed-exitcode', '--concurrency', c], { env, scratch })],
];

const rows = [];
for (const latencyMs of opt.latencies) {
  const server = await startServer({ data, jwtSecret, latencyMs });
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
  const benchEnv = { BENCH_URL: server.url, BENCH_TOKEN: token };
  const agent = makeAgent(opt.concurrency);
  await planFloor({ url: server.url, token, agent }, opt.concurrency); // warm the server
  await agent.close();
  const runs = new Map(VARIANTS.map(([name]) => [name, []]));
  for (let i = 0; i < opt.runs; i++) {
    for (const [name, run] of VARIANTS) {
      await server.settle();
      server.reset();
      const r = expectExit(await run(env, benchEnv), 0, `${name} (latency ${latencyMs})`);
      const counts = await server.settle();
      runs.get(name).push({ ms: r.ms, cpuMs: r.cpuMs, requests: counts.requests });
    }
    note(`latency ${latencyMs} run ${i + 1}: ${[...runs].map(([name, rs]) => `${name} ${secs(rs.at(-1).ms)}`).join(', ')}`);
  }
  await server.close();
  const floorMs = median(runs.get('floor').map((r) => r.ms));
  for (const [name, rs] of runs) {
    const ms = median(rs.map((r) => r.ms));
    rows.push([`${latencyMs} ms`, name, secs(ms), ratio(ms, floorMs), secs(median(rs.map((r) => r.cpuMs))), String(rs[0].requests)]);
  }
}

console.log(`## plan-bound: ${opt.actions} actions x ${opt.parsers} parsers, --concurrency ${opt.concurrency}, median of ${opt.runs} interleaved runs\n`);
console.log(table(['server latency', 'variant', 'wall', 'to floor', 'CPU', 'requests'], rows));
console.log(`\n${cpus().length} cores; machine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
