#!/usr/bin/env node
// `npm run bench`: runs every benchmark found under bench/, one after another (never at the same
// time: they would measure each other). Each writes its report to stdout and progress to stderr.
//
//   node bench/run.mjs            all of them: validate, lint, plan, apply, any other bench/*.mjs, then bench/server
//   node bench/run.mjs plan apply only those named (file name without .mjs; `server` for bench/server)
//   node bench/run.mjs --list     which would run

import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './lib/paths.mjs';

const BENCH = join(ROOT, 'bench');
const args = process.argv.slice(2);
const list = args.includes('--list');
const only = args.filter((a) => a !== '--list');

/** Tools that live beside the benches: this runner, and the A/B comparison (it needs --base DIR). */
const NOT_BENCHES = new Set(['run.mjs', 'plan-ab.mjs']);

function found() {
  // Every script directly in bench/ is a bench (lib/ holds helpers): the pipeline's order first,
  // then any others by name.
  const order = ['validate.mjs', 'lint.mjs', 'plan.mjs', 'apply.mjs'];
  const top = readdirSync(BENCH)
    .filter((f) => f.endsWith('.mjs') && !NOT_BENCHES.has(f))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((f) => join(BENCH, f));
  function rank(f) {
    const i = order.indexOf(f);
    return i === -1 ? order.length : i;
  }
  // bench/server/run.mjs is that bench's entry point (it drives its own helpers, such as
  // load.mjs, which cannot run alone); without it, each script there is run on its own.
  const serverDir = join(BENCH, 'server');
  let server = [];
  if (existsSync(join(serverDir, 'run.mjs'))) server = [join(serverDir, 'run.mjs')];
  else if (existsSync(serverDir)) server = readdirSync(serverDir).filter((f) => /\.m?js$/.test(f)).sort().map((f) => join(serverDir, f));
  const name = (f) => relative(BENCH, f).replace(/\.m?js$/, '').replace(/\/run$/, '');
  return [...top, ...server].filter((f) => only.length === 0 || only.includes(name(f)));
}

function run(file) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: 'inherit' });
    child.on('close', (code, signal) => done(code ?? signal));
  });
}

const benches = found();
if (benches.length === 0) {
  console.error(only.length ? `no bench named ${only.join(', ')} under bench/` : 'no benchmarks under bench/');
  process.exit(1);
}
if (list) {
  for (const file of benches) console.log(relative(ROOT, file));
  process.exit(0);
}
const failed = [];
for (const file of benches) {
  const name = relative(ROOT, file);
  process.stderr.write(`\n=== ${name}\n`);
  const started = performance.now();
  const code = await run(file);
  process.stderr.write(`=== ${name}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  if (code !== 0) failed.push(name);
}
if (failed.length) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
