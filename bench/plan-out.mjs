#!/usr/bin/env node
// The saved plan at scale (issue 36 item 9): `plan --out FILE` and `plan --format json` from an
// empty organization at N actions x 5 parsers (every action and parser a create: 600,000 changes
// at 100,000, a plan file of ~0.6 GB, more than one JavaScript string can hold), then reading the
// file back with `apply --plan FILE`. That apply has no terminal and no --yes, so it stops at the
// confirmation, after reading, checking and showing the whole plan: nothing is written.
// One process per measure, one at a time; stdout goes to /dev/null.
//
//   npm run build && node bench/plan-out.mjs [--actions 100000] [--parsers 5] [--runs 1]
//
// MENUCTL_BENCH_MAIN=/path/to/dist/bin/menuctl.js measures another build (the "before"). A
// command that fails is reported with its exit code and the last line it wrote to stderr.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMenuctl } from './lib/cli.mjs';
import { MAIN, scratchDir } from './lib/paths.mjs';
import { mintToken, startServer } from './lib/server.mjs';
import { makeWorld, worldYamlPart } from './lib/world.mjs';
import { mb, note, secs, table } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    actions: { type: 'string', default: '100000' },
    parsers: { type: 'string', default: '5' },
    runs: { type: 'string', default: '1' },
  },
});
const actions = Number(values.actions);
const parsers = Number(values.parsers);
const runs = Number(values.runs);
/** Files of at most this many actions: a config file may not pass 16 MiB (config.too-large). */
const PER_FILE = 10_000;

const scratch = scratchDir('plan-out');
const loadBefore = loadavg()[0];
const world = makeWorld({ actions, parsersPerAction: parsers });
const cfg = join(scratch, 'config');
mkdirSync(cfg);
for (let from = 0, k = 0; from < actions; from += PER_FILE, k++) {
  writeFileSync(join(cfg, `part-${String(k).padStart(3, '0')}.yaml`), worldYamlPart(world, from, Math.min(PER_FILE, actions - from)));
}
const planFile = join(scratch, 'plan.json');
const jwtSecret = randomBytes(32).toString('hex');
const token = await mintToken({ jwtSecret, scratch });
const server = await startServer({ data: join(scratch, 'api.sqlite'), jwtSecret });
const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };

const measures = [
  { name: 'plan --out FILE', args: ['plan', cfg, '--out', planFile, '--detailed-exitcode'], ok: (r) => r.code === 2 },
  { name: 'plan --format json > /dev/null', args: ['plan', cfg, '--format', 'json', '--detailed-exitcode'], ok: (r) => r.code === 2 },
  // No terminal, no --yes: refused at the question, after the file is read, checked and shown.
  { name: 'apply --plan FILE (stops at the question)', args: ['apply', '--plan', planFile], ok: (r) => r.code === 1 && r.stderr.includes('without confirmation'), needsFile: true },
];

const rows = [];
try {
  for (const m of measures) {
    for (let i = 0; i < runs; i++) {
      if (m.needsFile && !existsSync(planFile)) {
        rows.push([m.name, 'skipped: no plan file', '', '', '', '']);
        break;
      }
      const r = await runMenuctl(m.args, { env, scratch, stdout: 'ignore' });
      const size = m.name.startsWith('plan --out') && existsSync(planFile) ? `${(statSync(planFile).size / 1e6).toFixed(0)} MB file` : '';
      const outcome = m.ok(r) ? `ok${size ? `, ${size}` : ''}` : `failed (exit ${r.code}): ${r.stderr.trim().split('\n').at(-1)?.slice(0, 120)}`;
      note(`${m.name}: ${outcome}; ${mb(r.peakKb)} peak RSS, ${secs(r.ms)} wall, ${secs(r.cpuMs)} CPU`);
      rows.push([m.name, outcome, mb(r.peakKb), secs(r.ms), secs(r.cpuMs), loadavg()[0].toFixed(1)]);
    }
  }
} finally {
  await server.close();
}

console.log(`## plan-out: ${actions.toLocaleString('en')} actions x ${parsers} parsers from empty (${MAIN})\n`);
console.log(table(['command', 'outcome', 'peak RSS', 'wall', 'CPU', 'load (1 min)'], rows));
console.log(`\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
