// Benchmark: `menuctl test` on a generated config whose actions carry whole sessions, against the
// same config with the sessions removed, so the rows show what sessions add to a test run (walk,
// classification of the reply and each SMS in the regex sandbox, coverage).
// Run: npm run build && node bench/sessions.mjs   (BENCH_ACTIONS=1000 BENCH_RUNS=3 by default)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMenuctl } from './lib/cli.mjs';

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function config(withSessions) {
  const out = ['version: 1', 'actions:'];
  for (let i = 0; i < ACTIONS; i++) {
    out.push(
      `  - name: Balance ${i}`, '    root_code: "*334#"', '    transport_type: ussd', '    operators: [2172]',
      '    steps:', '      - press: 5', '        expect: My Account', '      - select: bundle', '      - pin',
      '    parsers:',
      `      - { category: received, status: pending, regex: '.*request ${i} has been received.*' }`,
      `      - { category: balance, status: succeeded, target_type: sms, sender: MPESA, regex: '(?<code>[A-Z0-9]{10}) Confirmed\\. Balance ${i} is Ksh(?<balance>[\\d,]+\\.\\d{2}).*' }`,
      `      - { category: wrong-pin, status: failed, regex: '.*wrong PIN.*' }`,
      '    tests:',
      `      - { message: "Your request ${i} has been received.", expect: { category: received } }`,
      `      - { message: "QAB1CD2EF3 Confirmed. Balance ${i} is Ksh1,200.00 today.", sender: MPESA, expect: { category: balance } }`,
      `      - { message: "You entered a wrong PIN.", expect: { category: wrong-pin } }`,
    );
    if (!withSessions) continue;
    out.push(
      '    sessions:',
      '      - name: ok',
      '        variables: { bundle: 1GB Weekly }',
      '        screens:',
      '          - "M-PESA\\n1. Send Money\\n5. My Account"',
      '          - "Bundles\\n1. 1GB Daily\\n2. 1GB Weekly\\n3. 10GB Monthly"',
      '          - "Enter PIN:"',
      `          - "Your request ${i} has been received."`,
      `        sms: [{ sender: MPESA, message: "QAB1CD2EF3 Confirmed. Balance ${i} is Ksh1,200.00 today." }]`,
      '        expect: { category: balance, variables: { balance: "1,200.00" } }',
      '      - name: pin',
      '        variables: { bundle: Daily }',
      '        screens: ["M-PESA\\n1. Send Money\\n5. My Account", "Bundles\\n1. 1GB Daily\\n2. 1GB Weekly", "Enter PIN:", "You entered a wrong PIN."]',
      '        expect: { category: wrong-pin }',
    );
  }
  return `${out.join('\n')}\n`;
}

const scratch = mkdtempSync(join(tmpdir(), 'menuctl-bench-sessions-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const rows = [];
  for (const withSessions of [false, true]) {
    const file = join(scratch, withSessions ? 'with.yaml' : 'without.yaml');
    writeFileSync(file, config(withSessions));
    const ms = [];
    const cpu = [];
    for (let r = 0; r < RUNS; r++) {
      const res = await runMenuctl(['test', file], { scratch });
      if (res.code !== 0) throw new Error(`menuctl test exited ${res.code}: ${res.stdout.slice(-500)}${res.stderr}`);
      ms.push(res.ms);
      cpu.push(res.cpuMs);
      process.stderr.write('.');
    }
    const last = withSessions ? `${ACTIONS * 3} fixtures + ${ACTIONS * 2} sessions` : `${ACTIONS * 3} fixtures`;
    rows.push(`| ${last} | ${Math.round(median(ms))} ms | ${Math.round(median(cpu))} ms |`);
  }
  process.stderr.write('\n');
  console.log(`## menuctl test with sessions (${ACTIONS} actions, median of ${RUNS}; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`);
  console.log('| config | wall | CPU |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(r);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
