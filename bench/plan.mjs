#!/usr/bin/env node
// Benchmark: a no-change `menuctl plan` of N actions x P parsers (default 1,000 x 5) against the
// reference server, beside its I/O floor (the same GETs by a bare undici loop at the same
// concurrency), with and without server latency. Issue 4, "Show"; results in docs/benchmarks.md.
//
//   node bench/plan.mjs [--actions 1000] [--parsers 5] [--runs 3] [--latency 0,20] [--profile] [--record] [--json FILE]
//
// --record: first establish the applied-state record beside the config (one `apply --resend all`,
// which records every action), so the plans read and compare it: the record's cost.

import { loadavg } from 'node:os';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { expectExit, peakRssMethod, runMenuctl, runNode } from './lib/cli.mjs';
import { makeAgent, planFloor } from './lib/http.mjs';
import { ROOT, scratchDir } from './lib/paths.mjs';
import { printProfile, printTimeline, topFrames } from './lib/profile.mjs';
import { seededWorld, startServer } from './lib/server.mjs';
import { mb, median, note, ratio, secs, table } from './lib/stats.mjs';

const opt = benchOptions();
const FLOOR_CHILD = join(ROOT, 'bench', 'lib', 'floor-child.mjs');
const loadBefore = loadavg()[0];
const scratch = scratchDir('plan');
const t0 = performance.now();
const seeded = await seededWorld({ actions: opt.actions, parsers: opt.parsers, concurrency: opt.concurrency, scratch });
const { data, jwtSecret, token, cfg } = seeded;
let server = seeded.server;
note(`seeded ${opt.actions} actions x ${opt.parsers} parsers in ${secs(performance.now() - t0)}`);
const seedUrl = server.url;
let recordBytes = null;
if (opt.record) {
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
  expectExit(await runMenuctl(['apply', cfg, '--yes', '--resend', 'all', '--concurrency', String(opt.concurrency)], { env, scratch }), 0, 'menuctl apply --resend all');
  recordBytes = statSync(join(scratch, 'menuctl.lock')).size;
  note(`record: ${join(scratch, 'menuctl.lock')}, ${recordBytes} bytes`);
}
await server.close();

// Process start + config load, no network: the part of every menuctl run the floor does not pay.
const validate = [];
for (let i = 0; i < opt.runs; i++) validate.push(expectExit(await runMenuctl(['validate', cfg], { scratch }), 0, 'menuctl validate'));
const validateMs = median(validate.map((r) => r.ms));
const validateCpuMs = median(validate.map((r) => r.cpuMs));
note(`validate: ${secs(validateMs)}, CPU ${secs(validateCpuMs)} (median of ${opt.runs})`);

const planArgs = ['plan', cfg, '--detailed-exitcode', '--concurrency', String(opt.concurrency)];
const results = [];
for (const latencyMs of opt.latencies) {
  // The same port every time: the record is kept per API URL.
  server = await startServer({ data, jwtSecret, latencyMs, port: Number(new URL(seedUrl).port) });
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
  const agent = makeAgent(opt.concurrency);
  const ctx = { url: server.url, token, agent };
  await planFloor(ctx, opt.concurrency); // warm the server and this process's undici once
  await server.settle();

  const plans = [];
  const floors = [];
  const colds = [];
  let planCounts;
  let floorCounts;
  for (let i = 0; i < opt.runs; i++) {
    server.reset();
    const r = expectExit(await runMenuctl(planArgs, { env, scratch }), 0, `menuctl plan (latency ${latencyMs})`);
    planCounts = await server.settle();
    plans.push(r);
    server.reset();
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    await planFloor(ctx, opt.concurrency);
    const cpu = process.cpuUsage(cpu0);
    floors.push({ ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 });
    floorCounts = await server.settle();
    server.reset();
    const cold = expectExit(await runNode(FLOOR_CHILD, ['plan', '0', '0', String(opt.concurrency)],
      { env: { BENCH_URL: server.url, BENCH_TOKEN: token }, scratch }), 0, 'cold floor');
    colds.push(cold);
    const coldCounts = await server.settle();
    if (coldCounts.requests !== floorCounts.requests) throw new Error(`cold floor made ${coldCounts.requests} requests, the warm one ${floorCounts.requests}`);
    note(`latency ${latencyMs} run ${i + 1}: plan ${secs(r.ms)} (CPU ${secs(r.cpuMs)}, ${planCounts.requests} requests, ${mb(r.peakKb)}), floor ${secs(floors.at(-1).ms)} warm, ${secs(cold.ms)} in a new process (${floorCounts.requests} requests)`);
  }
  if (opt.profile) {
    const dir = join(scratch, `prof-${latencyMs}`);
    mkdirSync(dir);
    expectExit(await runMenuctl(planArgs, { env, scratch, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] }), 0, 'profiled plan');
    printProfile(topFrames(dir, 25), `plan latency ${latencyMs}`, note);
    printTimeline(dir, note);
  }
  await agent.close();
  await server.close();

  const planMs = median(plans.map((r) => r.ms));
  const floorMs = median(floors.map((f) => f.ms));
  const coldFloorMs = median(colds.map((c) => c.ms));
  results.push({
    latencyMs,
    planMs,
    floorMs,
    coldFloorMs,
    ratioCold: planMs / coldFloorMs,
    planCpuMs: median(plans.map((r) => r.cpuMs)),
    floorCpuMs: median(floors.map((f) => f.cpuMs)),
    ratio: planMs / floorMs,
    ratioLessStart: (planMs - validateMs) / floorMs,
    planRequests: planCounts.requests,
    planByRoute: planCounts.byRoute,
    floorRequests: floorCounts.requests,
    peakKb: Math.max(...plans.map((r) => r.peakKb ?? 0)) || null,
    planRunsMs: plans.map((r) => r.ms),
    floorRunsMs: floors.map((f) => f.ms),
    coldFloorRunsMs: colds.map((c) => c.ms),
  });
}

const report = {
  bench: 'plan',
  actions: opt.actions,
  parsersPerAction: opt.parsers,
  concurrency: opt.concurrency,
  runs: opt.runs,
  recordBytes,
  validateMs,
  validateCpuMs,
  peakRssMethod,
  loadAverage1m: { before: loadBefore, after: loadavg()[0] },
  results,
};
if (opt.json) writeFileSync(opt.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(`## plan: no-change plan of ${opt.actions} actions x ${opt.parsers} parsers, --concurrency ${opt.concurrency} (median of ${opt.runs})${recordBytes === null ? ', no record' : `, with a record of ${recordBytes} bytes`}\n`);
console.log(table(
  ['server latency', 'menuctl plan', 'I/O floor', 'ratio', 'floor, new process', 'ratio to it', 'ratio less start-up', 'CPU (plan / floor)', 'requests (plan / floor)', 'peak RSS'],
  results.map((r) => [
    `${r.latencyMs} ms`, secs(r.planMs), secs(r.floorMs), ratio(r.planMs, r.floorMs),
    secs(r.coldFloorMs), ratio(r.planMs, r.coldFloorMs),
    `${r.ratioLessStart.toFixed(2)}x`, `${secs(r.planCpuMs)} / ${secs(r.floorCpuMs)}`,
    `${r.planRequests} / ${r.floorRequests}`, mb(r.peakKb),
  ]),
));
console.log(`\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
console.log(`start-up + config load (menuctl validate, same config): ${secs(validateMs)} wall, ${secs(validateCpuMs)} CPU`);
