#!/usr/bin/env node
// Benchmark: `menuctl apply --yes` creating N actions x P parsers (default 1,000 x 5) on a fresh
// reference server database, beside its I/O floor (the same POSTs by a bare undici loop at the
// same concurrency, on another fresh database), with and without server latency. After every
// apply the live state is checked (exactly N actions and N x P parsers, no duplicates); after
// the first of each latency a following plan must also be empty. Issue 5, "Show"; results in docs/benchmarks.md.
//
//   node bench/apply.mjs [--actions 1000] [--parsers 5] [--runs 3] [--latency 0,20] [--profile] [--json FILE]

import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { expectExit, peakRssMethod, runMenuctl } from './lib/cli.mjs';
import { countLive, createWorld, makeAgent } from './lib/http.mjs';
import { scratchDir } from './lib/paths.mjs';
import { printProfile, printTimeline, topFrames } from './lib/profile.mjs';
import { mintToken, startServer } from './lib/server.mjs';
import { mb, median, note, ratio, secs, table } from './lib/stats.mjs';
import { actionBody, makeWorld, parserBody, worldYaml } from './lib/world.mjs';

const opt = benchOptions();
const loadBefore = loadavg()[0];
const scratch = scratchDir('apply');
const jwtSecret = randomBytes(32).toString('hex');
const world = makeWorld({ actions: opt.actions, parsersPerAction: opt.parsers });
const wantParsers = opt.actions * opt.parsers;
const cfg = join(scratch, 'bench.yaml');
writeFileSync(cfg, worldYaml(world));
const token = await mintToken({ jwtSecret, scratch });

const validate = [];
for (let i = 0; i < opt.runs; i++) validate.push(expectExit(await runMenuctl(['validate', cfg], { scratch }), 0, 'menuctl validate'));
const validateMs = median(validate.map((r) => r.ms));
const validateCpuMs = median(validate.map((r) => r.cpuMs));
note(`validate: ${secs(validateMs)}, CPU ${secs(validateCpuMs)} (median of ${opt.runs})`);

let databases = 0;
/** A server on a database nobody has used; the caller closes it and the file is removed then. */
async function freshServer(latencyMs) {
  const data = join(scratch, `fresh-${databases++}.sqlite`);
  const server = await startServer({ data, jwtSecret, latencyMs });
  return { server, dispose: async () => { await server.close(); rmSync(data, { force: true }); rmSync(`${data}-wal`, { force: true }); rmSync(`${data}-shm`, { force: true }); } };
}

/** One apply from empty, counted at the server, then checked: converged, no duplicates, plan empty. */
async function applyOnce(latencyMs, { nodeArgs = [], planAfter = true } = {}) {
  const { server, dispose } = await freshServer(latencyMs);
  try {
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
    const r = expectExit(
      await runMenuctl(['apply', cfg, '--yes', '--concurrency', String(opt.concurrency)], { env, scratch, nodeArgs }),
      0, `menuctl apply (latency ${latencyMs})`);
    const counts = await server.settle();
    const agent = makeAgent(opt.concurrency);
    const live = await countLive({ url: server.url, token, agent }, opt.concurrency);
    await agent.close();
    if (live.actions !== opt.actions || live.uniqueNames !== opt.actions || live.parsers !== wantParsers || !live.categoriesUnique) {
      throw new Error(`after apply the live state is wrong: ${JSON.stringify(live)}; wanted ${opt.actions} actions and ${wantParsers} parsers, no duplicates`);
    }
    if (planAfter) {
      expectExit(await runMenuctl(['plan', cfg, '--detailed-exitcode', '--concurrency', String(opt.concurrency)], { env, scratch }), 0,
        'plan after apply (must show no changes)');
    }
    return { ...r, counts };
  } finally {
    await dispose();
  }
}

async function floorOnce(latencyMs) {
  const { server, dispose } = await freshServer(latencyMs);
  const agent = makeAgent(opt.concurrency);
  try {
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    await createWorld({ url: server.url, token, agent }, world, opt.concurrency, { actionBody, parserBody });
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, counts: await server.settle() };
  } finally {
    await agent.close();
    await dispose();
  }
}

const results = [];
for (const latencyMs of opt.latencies) {
  const applies = [];
  const floors = [];
  for (let i = 0; i < opt.runs; i++) {
    // Live counts are checked after every apply; the following plan (as long as a plan bench
    // run) after the first of each latency, to keep the bench within a few minutes.
    const a = await applyOnce(latencyMs, { planAfter: i === 0 });
    applies.push(a);
    const f = await floorOnce(latencyMs);
    floors.push(f);
    note(`latency ${latencyMs} run ${i + 1}: apply ${secs(a.ms)} (CPU ${secs(a.cpuMs)}, ${a.counts.requests} requests, ${mb(a.peakKb)}; verified), floor ${secs(f.ms)} (${f.counts.requests} requests)`);
  }
  if (opt.profile) {
    const dir = join(scratch, `prof-${latencyMs}`);
    mkdirSync(dir);
    await applyOnce(latencyMs, { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir], planAfter: false });
    printProfile(topFrames(dir, 25), `apply latency ${latencyMs}`, note);
    printTimeline(dir, note);
  }
  const applyMs = median(applies.map((a) => a.ms));
  const floorMs = median(floors.map((f) => f.ms));
  results.push({
    latencyMs,
    applyMs,
    floorMs,
    ratio: applyMs / floorMs,
    applyCpuMs: median(applies.map((a) => a.cpuMs)),
    floorCpuMs: median(floors.map((f) => f.cpuMs)),
    ratioLessStart: (applyMs - validateMs) / floorMs,
    applyRequests: applies.at(-1).counts.requests,
    applyByRoute: applies.at(-1).counts.byRoute,
    floorRequests: floors.at(-1).counts.requests,
    peakKb: Math.max(...applies.map((a) => a.peakKb ?? 0)) || null,
    applyRunsMs: applies.map((a) => a.ms),
    floorRunsMs: floors.map((f) => f.ms),
  });
}

const report = {
  bench: 'apply',
  actions: opt.actions,
  parsersPerAction: opt.parsers,
  concurrency: opt.concurrency,
  runs: opt.runs,
  validateMs,
  validateCpuMs,
  peakRssMethod,
  loadAverage1m: { before: loadBefore, after: loadavg()[0] },
  results,
};
if (opt.json) writeFileSync(opt.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(`## apply: create ${opt.actions} actions x ${opt.parsers} parsers from empty, --concurrency ${opt.concurrency} (median of ${opt.runs})\n`);
console.log(table(
  ['server latency', 'menuctl apply', 'I/O floor', 'ratio', 'ratio less start-up', 'CPU (apply / floor)', 'requests (apply / floor)', 'peak RSS'],
  results.map((r) => [
    `${r.latencyMs} ms`, secs(r.applyMs), secs(r.floorMs), ratio(r.applyMs, r.floorMs),
    `${r.ratioLessStart.toFixed(2)}x`, `${secs(r.applyCpuMs)} / ${secs(r.floorCpuMs)}`,
    `${r.applyRequests} / ${r.floorRequests}`, mb(r.peakKb),
  ]),
));
console.log(`\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
console.log(`start-up + config load (menuctl validate, same config): ${secs(validateMs)} wall, ${secs(validateCpuMs)} CPU`);
