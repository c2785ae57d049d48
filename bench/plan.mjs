#!/usr/bin/env node
// Benchmark: a no-change `menuctl plan` of N actions x P parsers (default 1,000 x 5) against the
// reference server, beside its I/O floor (the same GETs by a bare undici loop at the same
// concurrency), with and without server latency. Issue 4, "Show"; results in docs/benchmarks.md.
//
//   node bench/plan.mjs [--actions 1000] [--parsers 5] [--runs 3] [--latency 0,20] [--profile] [--json FILE]

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { expectExit, peakRssMethod, runMenuctl } from './lib/cli.mjs';
import { createWorld, makeAgent, planFloor } from './lib/http.mjs';
import { scratchDir } from './lib/paths.mjs';
import { topFrames } from './lib/profile.mjs';
import { mintToken, startServer } from './lib/server.mjs';
import { mb, median, note, ratio, secs, table } from './lib/stats.mjs';
import { actionBody, makeWorld, parserBody, worldYaml } from './lib/world.mjs';

const opt = benchOptions();
const scratch = scratchDir('plan');
const data = join(scratch, 'bench.sqlite');
const jwtSecret = randomBytes(32).toString('hex');
const world = makeWorld({ actions: opt.actions, parsersPerAction: opt.parsers });
const cfg = join(scratch, 'bench.yaml');
writeFileSync(cfg, worldYaml(world));

const token = await mintToken({ jwtSecret, scratch });
let server = await startServer({ data, jwtSecret });
const seedAgent = makeAgent(opt.concurrency);
const t0 = performance.now();
await createWorld({ url: server.url, token, agent: seedAgent }, world, opt.concurrency, { actionBody, parserBody });
await seedAgent.close();
note(`seeded ${opt.actions} actions x ${opt.parsers} parsers in ${secs(performance.now() - t0)}`);
await server.close();

// Process start + config load, no network: the part of every menuctl run the floor does not pay.
const validate = [];
for (let i = 0; i < opt.runs; i++) validate.push(expectExit(await runMenuctl(['validate', cfg], { scratch }), 0, 'menuctl validate'));
const validateMs = median(validate.map((r) => r.ms));
note(`validate: ${secs(validateMs)} (median of ${opt.runs})`);

const planArgs = ['plan', cfg, '--detailed-exitcode', '--concurrency', String(opt.concurrency)];
const results = [];
for (const latencyMs of opt.latencies) {
  server = await startServer({ data, jwtSecret, latencyMs });
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
  const agent = makeAgent(opt.concurrency);
  const ctx = { url: server.url, token, agent };
  await planFloor(ctx, opt.concurrency); // warm the server and this process's undici once
  await server.settle();

  const plans = [];
  const floors = [];
  let planCounts;
  let floorCounts;
  for (let i = 0; i < opt.runs; i++) {
    server.reset();
    const r = expectExit(await runMenuctl(planArgs, { env, scratch }), 0, `menuctl plan (latency ${latencyMs})`);
    planCounts = await server.settle();
    plans.push(r);
    server.reset();
    const started = performance.now();
    await planFloor(ctx, opt.concurrency);
    floors.push(performance.now() - started);
    floorCounts = await server.settle();
    note(`latency ${latencyMs} run ${i + 1}: plan ${secs(r.ms)} (${planCounts.requests} requests, ${mb(r.peakKb)}), floor ${secs(floors.at(-1))} (${floorCounts.requests} requests)`);
  }
  if (opt.profile) {
    const dir = join(scratch, `prof-${latencyMs}`);
    mkdirSync(dir);
    expectExit(await runMenuctl(planArgs, { env, scratch, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] }), 0, 'profiled plan');
    const prof = topFrames(dir);
    note(`profile (latency ${latencyMs}): ${secs(prof.totalMs)} sampled CPU; top self time:`);
    for (const f of prof.top) note(`  ${f.ms.toFixed(0).padStart(6)} ms ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.frame}`);
  }
  await agent.close();
  await server.close();

  const planMs = median(plans.map((r) => r.ms));
  const floorMs = median(floors);
  results.push({
    latencyMs,
    planMs,
    floorMs,
    ratio: planMs / floorMs,
    ratioLessStart: (planMs - validateMs) / floorMs,
    planRequests: planCounts.requests,
    planByRoute: planCounts.byRoute,
    floorRequests: floorCounts.requests,
    peakKb: Math.max(...plans.map((r) => r.peakKb ?? 0)) || null,
    planRunsMs: plans.map((r) => r.ms),
    floorRunsMs: floors,
  });
}

const report = {
  bench: 'plan',
  actions: opt.actions,
  parsersPerAction: opt.parsers,
  concurrency: opt.concurrency,
  runs: opt.runs,
  validateMs,
  peakRssMethod,
  results,
};
if (opt.json) writeFileSync(opt.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(`## plan: no-change plan of ${opt.actions} actions x ${opt.parsers} parsers, --concurrency ${opt.concurrency} (median of ${opt.runs})\n`);
console.log(table(
  ['server latency', 'menuctl plan', 'I/O floor', 'ratio', 'ratio less start-up', 'requests (plan / floor)', 'peak RSS'],
  results.map((r) => [
    `${r.latencyMs} ms`, secs(r.planMs), secs(r.floorMs), ratio(r.planMs, r.floorMs),
    `${r.ratioLessStart.toFixed(2)}x`, `${r.planRequests} / ${r.floorRequests}`, mb(r.peakKb),
  ]),
));
console.log(`\nstart-up + config load (menuctl validate, same config): ${secs(validateMs)}`);
