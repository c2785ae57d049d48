#!/usr/bin/env node
// A/B: a no-change `menuctl plan` of N x P by two builds, interleaved run by run against one
// reference server, so that machine noise falls on both alike. Splits each run at the server's
// access log: time to the first request (start-up + config load), the I/O window, and the time
// after the last answer (planning, rendering, exit), and each run's peak RSS. How two builds'
// plans are compared (docs/benchmarks.md "plan-ab").
//
//   node bench/plan-ab.mjs --base DIR [--runs 5] [--latency 0,20] [--actions 1000] [--parsers 5]
//
// DIR: another checkout, built (`npx tsc -p .` there; `git worktree add DIR <commit>` and a
// symlink to this node_modules will do). The server, the world and the floor are this build's.

import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchOptions } from './lib/args.mjs';
import { expectExit, runNode } from './lib/cli.mjs';
import { makeAgent, planFloor } from './lib/http.mjs';
import { MAIN, scratchDir } from './lib/paths.mjs';
import { seededWorld, startServer } from './lib/server.mjs';
import { worldYamlPart } from './lib/world.mjs';
import { median, note, secs, table } from './lib/stats.mjs';

const argv = process.argv.slice(2);
const base = parseArgs({ args: argv, options: { base: { type: 'string' } }, strict: false }).values.base;
if (typeof base !== 'string') throw new Error('--base DIR is required: a built checkout to compare with');
const opt = benchOptions(argv.filter((a, i) => a !== '--base' && argv[i - 1] !== '--base' && !a.startsWith('--base=')));
const builds = [
  { name: `base (${base})`, main: join(resolve(base), 'dist', 'cli', 'main.js') },
  { name: 'this build', main: MAIN },
];
for (const b of builds) if (!existsSync(b.main)) throw new Error(`${b.main} is missing: build it first`);

const scratch = scratchDir('plan-ab');
const seeded = await seededWorld({ actions: opt.actions, parsers: opt.parsers, concurrency: opt.concurrency, scratch, name: 'ab' });
const { data, jwtSecret, token } = seeded;
// A config file may not pass 16 MiB (config.too-large): a big world is a directory of files of
// 10,000 actions each, as bench/memory.mjs writes it.
let cfg = seeded.cfg;
if (statSync(cfg).size > 16 * 1024 * 1024) {
  cfg = join(scratch, 'ab-config');
  mkdirSync(cfg);
  for (let from = 0, k = 0; from < opt.actions; from += 10_000, k++) {
    writeFileSync(join(cfg, `part-${String(k).padStart(3, '0')}.yaml`), worldYamlPart(seeded.world, from, Math.min(10_000, opt.actions - from)));
  }
}
await seeded.server.close();
let server;

const rows = [];
for (const latencyMs of opt.latencies) {
  server = await startServer({ data, jwtSecret, latencyMs });
  const agent = makeAgent(opt.concurrency);
  await planFloor({ url: server.url, token, agent }, opt.concurrency); // warm the server
  await agent.close();
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
  const runs = new Map(builds.map((b) => [b.name, []]));
  for (let i = 0; i < opt.runs; i++) {
    for (const b of builds) {
      await server.settle();
      server.reset();
      const spawnedAt = Date.now();
      const r = expectExit(await runNode(b.main, ['plan', cfg, '--detailed-exitcode', '--concurrency', String(opt.concurrency)], { env, scratch }), 0, `${b.name} plan`);
      const t = await server.settle();
      runs.get(b.name).push({ ms: r.ms, cpuMs: r.cpuMs, peakKb: r.peakKb, first: t.firstStart - spawnedAt, after: spawnedAt + r.ms - t.lastEnd, requests: t.requests });
    }
  }
  await server.close();
  for (const b of builds) {
    const rs = runs.get(b.name);
    const m = (k) => median(rs.map((r) => r[k]));
    const peaks = rs.map((r) => r.peakKb).filter((kb) => kb !== null);
    const peak = peaks.length === 0 ? 'n/a' : `${Math.round(median(peaks) / 1024)} MB (${Math.round(Math.min(...peaks) / 1024)}-${Math.round(Math.max(...peaks) / 1024)})`;
    rows.push([`${latencyMs} ms`, b.name, secs(m('ms')), `${Math.round(m('first'))} ms`, secs(m('ms') - m('first') - m('after')), `${Math.round(m('after'))} ms`, secs(m('cpuMs')), peak, String(rs[0].requests), rs.map((r) => (r.ms / 1000).toFixed(2)).join(' ')]);
    note(`latency ${latencyMs}, ${b.name}: ${rs.map((r) => `${secs(r.ms)} ${r.peakKb === null ? '' : `${Math.round(r.peakKb / 1024)} MB`}`).join(', ')}`);
  }
}
console.log(`## plan A/B: no-change plan of ${opt.actions} x ${opt.parsers}, --concurrency ${opt.concurrency}, ${opt.runs} interleaved runs (medians)\n`);
console.log(table(['latency', 'build', 'plan', 'to first request', 'I/O window', 'after last answer', 'CPU', 'peak RSS (median, range)', 'requests', 'runs (s)'], rows));
