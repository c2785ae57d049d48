// Benchmark: what `environments:` costs the loader, on the 5,000-action config of bench/validate.mjs.
// Run: npm run build && node bench/environments.mjs      (BENCH_RUNS=3 by default)
// Warm loadConfig (one process, after one untimed run), median ms, three cases:
//  - no environments (one parse, plus a substring search for the word `environments`);
//  - two environments, --env staging (the definitions are read from the same parse);
//  - two environments, none selected, as validate and test do (one parse, evaluated and checked
//    once per environment).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ACTIONS = 5000;

function generate(environments) {
  const out = ['version: 1'];
  if (environments) {
    out.push('environments:', '  staging: { organization_id: 81, variables: { HOOK: "https://s.example.com" } }',
      '  production: { organization_id: 82, variables: { HOOK: "https://p.example.com" } }');
  }
  out.push('actions:');
  for (let i = 0; i < ACTIONS; i++) {
    out.push(`  - name: Action ${i}`, `    root_code: "*${100 + (i % 800)}*${i}#"`, '    transport_type: ussd', '    operators: [2172]', '    parsers:');
    for (let p = 0; p < 5; p++) out.push(`      - category: cat-${p}`, '        status: failed', `        regex: '.*Reply ${p} for ${i}: (?<b${p}>\\d+)\\.'`);
  }
  out.push('apps:', '  - name: Agent', '    package_name: com.example.agent', '    webhook_url: ${HOOK}');
  return `${out.join('\n')}\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { loadConfig } = await import('../dist/config/load.js');
const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-bench-env-'));
try {
  const plain = path.join(dir, 'plain.yaml');
  const withEnvs = path.join(dir, 'envs.yaml');
  writeFileSync(plain, generate(false));
  writeFileSync(withEnvs, generate(true));
  const cases = [
    ['no environments', plain, { MENUCTL_VAR_HOOK: 'https://x.example.com' }, undefined],
    ['2 environments, --env staging', withEnvs, {}, 'staging'],
    ['2 environments, all checked (validate)', withEnvs, {}, undefined],
  ];
  console.log(`| case (${ACTIONS} actions x 5 parsers, warm, median of ${RUNS}) | ms |\n|---|---:|`);
  for (const [name, file, env, environment] of cases) {
    // A fresh env object each run: the finding of environments is not served from the last run's cache.
    const once = () => loadConfig([file], { env: { ...env }, cwd: dir, ...(environment ? { environment } : {}) });
    const first = await once();
    if (first.state === null) throw new Error(`${name}: ${JSON.stringify(first.diagnostics.slice(0, 2))}`);
    const times = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      await once();
      times.push(performance.now() - t0);
    }
    console.log(`| ${name} | ${median(times).toFixed(0)} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
