// Benchmark: `menuctl validate` of the same config written in block style and in flow style
// (JSON-like `{...}`/`[...]`, as generated configs are), timed in alternation; and the two YAML
// libraries' parse of both texts.
// Run: npm run build && node bench/yaml-styles.mjs   (BENCH_RUNS=7, BENCH_ACTIONS=1000 by default)
// Prints a markdown table for the "YAML styles" section of docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configWithFixtures } from './lib/config-world.mjs';

const require = createRequire(import.meta.url);
const jsyaml = require('js-yaml');
const yaml = require('yaml');

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 1000);
const PARSERS = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ENV = { MENUCTL_VAR_HOOK: 'https://hooks.example.com/x' };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;

const block = configWithFixtures(ACTIONS, PARSERS);
// The same values, as JSON (flow style: every collection in brackets, over many lines).
const flow = `${JSON.stringify(jsyaml.load(block), null, 2)}\n`;

const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-styles-'));
const files = { block: path.join(dir, 'block.yaml'), flow: path.join(dir, 'flow.yaml') };
writeFileSync(files.block, block);
writeFileSync(files.flow, flow);

const validate = (file) => {
  const t0 = performance.now();
  const p = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'validate', file], { env: { ...process.env, ...ENV }, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (p.status !== 0) throw new Error(`validate ${file} exited ${p.status}: ${p.stdout.slice(0, 300)}${p.stderr.slice(0, 300)}`);
  return ms;
};

const inProcess = (fn, text) => {
  fn(text); // warm-up
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    fn(text);
    times.push(performance.now() - t0);
  }
  return times;
};

const load0 = loadavg()[0];
const t = { block: [], flow: [] };
for (let r = 0; r < RUNS; r++) {
  // Alternate which goes first, so drift in the machine's load hits both alike.
  const order = r % 2 === 0 ? ['block', 'flow'] : ['flow', 'block'];
  for (const style of order) t[style].push(validate(files[style]));
}
const libs = {
  'js-yaml load': (s) => jsyaml.load(s),
  'yaml parse (values)': (s) => yaml.parse(s, { uniqueKeys: true, strict: true }),
  'yaml parseDocument (positions)': (s) => yaml.parseDocument(s, { prettyErrors: false, uniqueKeys: true, strict: true }),
};
const parse = Object.entries(libs).map(([name, fn]) => ({ name, block: inProcess(fn, block), flow: inProcess(fn, flow) }));
const load1 = loadavg()[0];
rmSync(dir, { recursive: true, force: true });

const kb = (s) => `${(Buffer.byteLength(s) / 1024).toFixed(0)} KiB`;
const lines = [
  `${ACTIONS} actions x ${PARSERS} parsers: block ${kb(block)}, flow ${kb(flow)}; ${RUNS} runs each, in alternation, median (range).`,
  '',
  '| measure | block | flow | flow / block |',
  '|---|---|---|---|',
  `| \`menuctl validate\` (new process) | ${median(t.block).toFixed(0)} ms (${range(t.block)}) | ${median(t.flow).toFixed(0)} ms (${range(t.flow)}) | ${(median(t.flow) / median(t.block)).toFixed(2)}x |`,
  ...parse.map((p) => `| ${p.name}, warm | ${median(p.block).toFixed(0)} ms (${range(p.block)}) | ${median(p.flow).toFixed(0)} ms (${range(p.flow)}) | ${(median(p.flow) / median(p.block)).toFixed(2)}x |`),
  '',
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; 1-minute load average ${load0.toFixed(1)} before, ${load1.toFixed(1)} after.`,
];
console.log(lines.join('\n'));
