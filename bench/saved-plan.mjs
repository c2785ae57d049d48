#!/usr/bin/env node
// Benchmark: what `apply --plan FILE` costs before its first write. N actions x P parsers
// (default 1,000 x 5) are applied once; then every tenth action's root_code changes and the plan
// is saved. `apply --plan` is run without --yes and without a terminal, so it refuses at the
// confirmation, after every check: the plan file's schema, the organization, the fingerprints
// (verifyPlan), and, with PATH, the config (digest, a new plan, protection: against-config.ts).
// Both ways are measured, with the requests the server answered; nothing is written.
//
//   node bench/saved-plan.mjs [--actions 1000] [--parsers 5] [--runs 3]

import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { expectExit, runMenuctl } from './lib/cli.mjs';
import { scratchDir } from './lib/paths.mjs';
import { mintToken, startServer } from './lib/server.mjs';
import { mb, median, note, secs, table } from './lib/stats.mjs';
import { makeWorld, worldYaml } from './lib/world.mjs';

const opt = benchOptions();
const loadBefore = loadavg()[0];
const scratch = scratchDir('saved-plan');
const jwtSecret = randomBytes(32).toString('hex');
const world = makeWorld({ actions: opt.actions, parsersPerAction: opt.parsers });
const cfg = join(scratch, 'bench.yaml');
const planFile = join(scratch, 'plan.json');
writeFileSync(cfg, worldYaml(world));
const token = await mintToken({ jwtSecret, scratch });
const server = await startServer({ data: join(scratch, 'api.sqlite'), jwtSecret });
const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };

try {
  expectExit(await runMenuctl(['apply', cfg, '--yes', '--concurrency', String(opt.concurrency)], { env, scratch }), 0, 'initial apply');
  world.actions.forEach((a, i) => { if (i % 10 === 0) a.root_code = '*999#'; });
  writeFileSync(cfg, worldYaml(world));
  expectExit(await runMenuctl(['plan', cfg, '--out', planFile], { env, scratch }), 0, 'plan --out');

  const rows = [];
  for (const [label, extra] of [['without PATH', []], ['with PATH', [cfg]]]) {
    const runs = [];
    for (let i = 0; i < opt.runs; i++) {
      await server.settle();
      server.reset();
      const r = await runMenuctl(['apply', '--plan', planFile, '--concurrency', String(opt.concurrency), ...extra], { env, scratch });
      if (r.code !== 1 || !r.stderr.includes('refusing to apply without confirmation')) {
        throw new Error(`apply --plan ${label} should stop at the confirmation, got ${r.code}:\n${r.stderr}`);
      }
      runs.push({ ...r, counts: await server.settle() });
      note(`${label} run ${i + 1}: ${secs(r.ms)} (CPU ${secs(r.cpuMs)}), ${runs.at(-1).counts.requests} requests`);
    }
    rows.push([label, secs(median(runs.map((r) => r.ms))), secs(median(runs.map((r) => r.cpuMs))), String(runs.at(-1).counts.requests), mb(median(runs.map((r) => r.peakKb)))]);
  }
  const changes = Math.ceil(opt.actions / 10);
  console.log(`apply --plan checks before the first write: ${opt.actions} actions x ${opt.parsers} parsers, a plan of ${changes} updates`);
  console.log(`(median of ${opt.runs}; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after)\n`);
  console.log(table(['apply --plan', 'wall', 'CPU', 'requests', 'peak RSS'], rows));
} finally {
  await server.close();
}
