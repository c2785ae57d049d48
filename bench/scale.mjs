#!/usr/bin/env node
// Scaling: how plan, apply, validate and test grow with the config, at 100, 1,000, 5,000 and
// 10,000 actions x 5 parsers (issue 17, item 3). One process per measure, one run each (the
// point is the shape, not a median), no server latency. Per row: wall, CPU (user + system, the
// load-robust one), peak RSS and requests, plus CPU per 1,000 actions: flat when growth is linear.
//
//   npm run build && node bench/scale.mjs [--sizes 100,1000,5000,10000] [--only plan,apply,validate,test,analyze] [--json FILE]
//
// plan and apply run bench/plan.mjs and bench/apply.mjs (--runs 1 --latency 0) and read their
// --json; validate and test run the CLI on bench/lib/config-world.mjs's config (one fixture each).

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { configWithFixtures } from './lib/config-world.mjs';
import { expectExit, runMenuctl } from './lib/cli.mjs';
import { ROOT, scratchDir } from './lib/paths.mjs';
import { mb, note, secs, table } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,5000,10000' },
    only: { type: 'string', default: 'plan,apply,validate,test,analyze' },
    json: { type: 'string' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const only = new Set(values.only.split(','));
const PARSERS = 5;
const scratch = scratchDir('scale');
const loadBefore = loadavg()[0];

function bench(script, actions) {
  const out = join(scratch, `${script}-${actions}.json`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', `${script}.mjs`), '--actions', String(actions), '--parsers', String(PARSERS),
      '--runs', '1', '--latency', '0', '--json', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', (code) => (code === 0 ? done(JSON.parse(readFileSync(out, 'utf8'))) : fail(new Error(`bench/${script}.mjs --actions ${actions} exited ${code}`))));
  });
}

async function cli(command, actions) {
  const file = join(scratch, `config-${actions}.yaml`);
  writeFileSync(file, configWithFixtures(actions, PARSERS));
  const r = expectExit(await runMenuctl([command, file], { scratch, env: { MENUCTL_VAR_HOOK: 'https://hooks.example.com/x' } }), 0, `menuctl ${command}`);
  return { ms: r.ms, cpuMs: r.cpuMs, peakKb: r.peakKb, requests: 0 };
}

const rows = [];
for (const actions of sizes) {
  const measure = async (name, get) => {
    if (!only.has(name)) return;
    const m = await get();
    rows.push({ name, actions, ...m, load: loadavg()[0] });
    note(`${name} ${actions}: ${secs(m.ms)} wall, ${secs(m.cpuMs)} CPU, ${mb(m.peakKb)}, ${m.requests} requests`);
  };
  await measure('validate', () => cli('validate', actions));
  await measure('test', () => cli('test', actions));
  await measure('analyze', () => cli('analyze', actions));
  await measure('plan', async () => {
    const r = (await bench('plan', actions)).results[0];
    return { ms: r.planMs, cpuMs: r.planCpuMs, peakKb: r.peakKb, requests: r.planRequests };
  });
  await measure('apply', async () => {
    const r = (await bench('apply', actions)).results[0];
    return { ms: r.applyMs, cpuMs: r.applyCpuMs, peakKb: r.peakKb, requests: r.applyRequests };
  });
}

if (values.json) writeFileSync(values.json, `${JSON.stringify({ bench: 'scale', parsersPerAction: PARSERS, loadBefore, rows }, null, 2)}\n`);
console.log(`## scaling: N actions x ${PARSERS} parsers, no latency, one run each\n`);
const per1000 = (v, n) => `${(v / (n / 1000) / 1000).toFixed(2)} s`;
console.log(table(
  ['command', 'actions', 'wall', 'CPU', 'CPU per 1,000 actions', 'peak RSS', 'requests', 'load (1 min)'],
  [...only].flatMap((name) => rows.filter((r) => r.name === name)).map((r) => [
    r.name, r.actions.toLocaleString('en'), secs(r.ms), secs(r.cpuMs), per1000(r.cpuMs, r.actions), mb(r.peakKb), String(r.requests), r.load.toFixed(1),
  ]),
));
console.log(`\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
