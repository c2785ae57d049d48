// Benchmark: `menuctl replay` over a year of traffic (issue 27 item 5): generated Hover webhook
// records (JSONL) for examples/, 100,000 and 1,000,000 transactions, reporting transactions per
// second (wall and CPU) and the peak RSS, which must stay flat as the records grow (they are
// streamed, not held). Every transaction has its own transaction code, amount and phone number,
// so most SMS are distinct messages: the cache helps only where real traffic repeats itself
// (menus, "request received", an outage message).
// Run: npm run build && node bench/replay.mjs   (BENCH_SIZES=100000,1000000 BENCH_BASELINE=1 by default)
import { createWriteStream } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { runMenuctl } from './lib/cli.mjs';
import { ROOT, scratchDir } from './lib/paths.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const WITH_BASELINE = process.env.BENCH_BASELINE !== '0';
const scratch = scratchDir('replay');

const MENU = ['M-PESA\n1. Send Money\n2. Withdraw Cash\n3. Buy Airtime\n4. Loans and Savings\n5. My Account\n6. Lipa na M-PESA', 'My Account\n1. Check balance\n2. Mini statement\n3. Change PIN', 'Enter M-PESA PIN:'];
const RECEIVED = 'Your request has been received and is being processed. You will receive an M-PESA message shortly.';
const NAMES = ['JOHN KAMAU', 'MARY ATIENO', 'PETER OTIENO', 'GRACE WANJIKU'];

// A small deterministic generator: the same records on every run.
let seed = 42;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
const code = () => Array.from({ length: 10 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'[rand(34)]).join('');
const amount = () => `${rand(90) + 1},${String(rand(1000)).padStart(3, '0')}.${String(rand(100)).padStart(2, '0')}`;
const phone = () => `07${String(rand(100_000_000)).padStart(8, '0')}`;

function record(i) {
  const at = new Date(Date.UTC(2023, 0, 1) + i * 30_000).toISOString();
  const kind = rand(100);
  let last = RECEIVED;
  let hits = [];
  let status = 'succeeded';
  let category = 'balance';
  if (kind < 70) {
    hits = [{ sender: 'MPESA', timestamp: at, message: `${code()} Confirmed. Your account balance was: M-PESA Account : Ksh${amount()} Business Account : Ksh0.00 on 2/10/23 at 3:45 PM.` }];
  } else if (kind < 85) {
    last = 'You have entered a wrong PIN. Please try again.';
    status = 'failed'; category = 'wrong-pin';
  } else if (kind < 95) {
    last = `Dear ${NAMES[rand(4)]}, the PIN you entered is incorrect. Call ${phone()} for help.`;
    status = 'pending'; category = null;
  } else {
    last = `Service temporarily unavailable. Please try again after ${rand(30) + 1} minutes.`;
    status = 'pending'; category = null;
  }
  return JSON.stringify({
    meta: { secret: 'whsec_bench' },
    data: { type: 'transaction', attributes: {
      uuid: `tx-${i}`, action_id: 'act-balance', action_name: 'M-PESA balance', status, category, initiated_at: at,
      msisdn: phone(), session_messages: [...MENU, last], values_entered: ['5', '1', '(pin)'], sms_hits: hits, sms_misses: [],
    } },
  });
}

async function generate(n) {
  const file = join(scratch, `records-${n}.jsonl`);
  const out = createWriteStream(file);
  seed = 42;
  for (let i = 0; i < n; i++) {
    if (!out.write(`${record(i)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

const fmt = (n) => Math.round(n).toLocaleString('en');
console.log(`# menuctl replay: ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, Node ${process.version}\n`);
console.log('| transactions | mode | wall | CPU | tx/s (wall) | tx/s (CPU) | peak RSS |');
console.log('|---:|---|---:|---:|---:|---:|---:|');
for (const n of SIZES) {
  process.stderr.write(`generating ${n.toLocaleString('en')} records...\n`);
  const file = await generate(n);
  const modes = [['records', []], ...(WITH_BASELINE ? [['--baseline', ['--baseline', join(ROOT, 'examples')]]] : [])];
  for (const [mode, extra] of modes) {
    process.stderr.write(`replaying ${n.toLocaleString('en')} (${mode})...\n`);
    const r = await runMenuctl(['replay', join(ROOT, 'examples'), '--records', file, ...extra, '--format', 'json'], { scratch });
    if (r.code !== 0) throw new Error(`replay exited ${r.code}: ${r.stderr}`);
    const summary = JSON.parse(r.stdout).summary;
    if (summary.transactions !== n) throw new Error(`replayed ${summary.transactions} of ${n}`);
    const cpu = r.cpuMs ?? r.ms;
    console.log(`| ${fmt(n)} | ${mode} | ${(r.ms / 1000).toFixed(1)} s | ${(cpu / 1000).toFixed(1)} s | ${fmt(n / (r.ms / 1000))} | ${fmt(n / (cpu / 1000))} | ${r.peakKb === null ? '?' : `${fmt(r.peakKb / 1024)} MB`} |`);
  }
}
