#!/usr/bin/env node
// Memory: peak RSS of validate, plan and analyze at N actions x 5 parsers (issue 28 item 9: aim
// under 600 MB at 100,000 x 5). One process per measure, no server latency.
//
//   npm run build && node bench/memory.mjs [--sizes 10000,100000] [--only validate,plan,plan-empty,analyze] [--runs 1] [--json FILE]
//
// Peak RSS moves 10-15 % from run to run at 100,000 (when V8's full collections fall decides
// how far the heap grows past its live size): --runs N measures each N times in a row and
// reports the median and the range.
//
// validate and analyze load bench/lib/config-world.mjs's config (as bench/scale.mjs does); plan
// loads bench/lib/world.mjs's config against a reference server seeded with exactly that world
// (a no-change plan), and plan-empty the same config against an organization that holds nothing
// (every action and parser a create). Seeding 100,000 x 5 takes several minutes.
// MENUCTL_BENCH_MAIN=/path/to/dist/cli/main.js measures another build (the "before").

import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { configWithFixtures } from './lib/config-world.mjs';
import { expectExit, peakRssMethod, runMenuctl } from './lib/cli.mjs';
import { MAIN, scratchDir } from './lib/paths.mjs';
import { mintToken, seededWorld } from './lib/server.mjs';
import { worldYamlPart } from './lib/world.mjs';
import { mb, note, secs, table } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    only: { type: 'string', default: 'validate,plan,plan-empty,analyze' },
    json: { type: 'string' },
    runs: { type: 'string', default: '1' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
const only = new Set(values.only.split(','));
const PARSERS = 5;
const scratch = scratchDir('memory');
const loadBefore = loadavg()[0];
const rows = [];
/** Files of at most this many actions: a config file may not pass 16 MiB (config.too-large). */
const PER_FILE = 10_000;

/** A directory of configs, PER_FILE actions each: write(count, parsers, first) gives one file's text. */
function writeSplit(name, actions, write) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (let from = 0, k = 0; from < actions; from += PER_FILE, k++) {
    writeFileSync(join(dir, `part-${String(k).padStart(3, '0')}.yaml`), write(Math.min(PER_FILE, actions - from), PARSERS, from));
  }
  return dir;
}

/** One row per command and size: the median run (by peak RSS) and the range of peaks. */
function record(name, actions, results) {
  const sorted = [...results].sort((a, b) => a.peakKb - b.peakKb);
  const r = sorted[Math.floor((sorted.length - 1) / 2)];
  const range = sorted.length > 1 ? ` (${mb(sorted[0].peakKb)}-${mb(sorted.at(-1).peakKb)})` : '';
  rows.push({ name, actions, ms: r.ms, cpuMs: r.cpuMs, peakKb: r.peakKb, range, peaksKb: results.map((x) => x.peakKb), load: loadavg()[0] });
  note(`${name} ${actions}: ${mb(r.peakKb)}${range} peak RSS, ${secs(r.ms)} wall, ${secs(r.cpuMs)} CPU`);
}

async function measure(name, actions, args, env, exitCode) {
  if (!only.has(name)) return;
  const results = [];
  for (let i = 0; i < runs; i++) results.push(expectExit(await runMenuctl(args, { scratch, env }), exitCode, `menuctl ${name}`));
  record(name, actions, results);
}

for (const actions of sizes) {
  const fixtures = writeSplit(`fixtures-${actions}`, actions, configWithFixtures);
  const hook = { MENUCTL_VAR_HOOK: 'https://hooks.example.com/x' };
  await measure('validate', actions, ['validate', fixtures], hook, 0);
  // analyze exits 1 when a finding is an error: either answer is a finished analysis.
  if (only.has('analyze')) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const r = await runMenuctl(['analyze', fixtures, '--format', 'json'], { scratch, env: hook });
      if (r.code !== 0 && r.code !== 1) expectExit(r, 0, 'menuctl analyze');
      results.push(r);
    }
    record('analyze', actions, results);
  }
  if (!only.has('plan') && !only.has('plan-empty')) continue;
  const t0 = performance.now();
  const world = await seededWorld({ actions, parsers: PARSERS, concurrency: 16, scratch, name: `world-${actions}` });
  // The same world as a directory of files (one file would pass the 16 MiB limit at 100,000).
  world.cfg = writeSplit(`world-${actions}`, actions, (n, p, from) => worldYamlPart(world.world, from, n));
  note(`seeded ${actions} x ${PARSERS} in ${secs(performance.now() - t0)}`);
  try {
    const planArgs = ['plan', world.cfg, '--detailed-exitcode', '--concurrency', '8'];
    await measure('plan', actions, planArgs, { MENUCTL_API_URL: world.server.url, MENUCTL_TOKEN: world.token }, 0);
    const empty = await mintToken({ jwtSecret: world.jwtSecret, org: 2, scratch });
    await measure('plan-empty', actions, planArgs, { MENUCTL_API_URL: world.server.url, MENUCTL_TOKEN: empty }, 2);
  } finally {
    await world.server.close();
  }
}

if (values.json) writeFileSync(values.json, `${JSON.stringify({ bench: 'memory', main: MAIN, parsersPerAction: PARSERS, peakRssMethod, loadBefore, rows }, null, 2)}\n`);
console.log(`## memory: N actions x ${PARSERS} parsers, peak RSS (${peakRssMethod}), ${runs === 1 ? 'one run each' : `median of ${runs} runs (range)`}\n`);
console.log(table(
  ['command', 'actions', 'peak RSS', 'wall', 'CPU', 'load (1 min)'],
  [...only].flatMap((name) => rows.filter((r) => r.name === name)).map((r) => [
    r.name, r.actions.toLocaleString('en'), `${mb(r.peakKb)}${r.range}`, secs(r.ms), secs(r.cpuMs), r.load.toFixed(1),
  ]),
));
console.log(`\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
