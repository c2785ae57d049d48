#!/usr/bin/env node
// Benchmark: --concurrency beyond 8 against a server of fixed capacity (issue 17, item 4). A
// no-change plan of N x P (default 1,000 x 5) against `menuctl serve --latency L --capacity C`
// (C requests served at once, the rest queue), at fixed levels and at `--concurrency auto`.
// What to read: wall time (more in flight than C only queues at the server), requests (a storm
// would show as more than the 1,003 a plan needs), and 429s (none expected: the server queues).
// With --rate-limit N the server answers 429 past N requests per second instead (`--capacity 0`
// for no capacity bound): what growing until the server says no costs.
//
//   npm run build && node bench/concurrency.mjs [--actions 1000] [--latency 20] [--capacity 32] [--rate-limit 0] [--levels 8,16,32,64,auto]

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { expectExit, runMenuctl } from './lib/cli.mjs';
import { scratchDir } from './lib/paths.mjs';
import { seededWorld, startServer } from './lib/server.mjs';
import { mb, note, secs, table } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    actions: { type: 'string', default: '1000' },
    parsers: { type: 'string', default: '5' },
    latency: { type: 'string', default: '20' },
    capacity: { type: 'string', default: '32' },
    'rate-limit': { type: 'string', default: '0' },
    levels: { type: 'string', default: '8,16,32,64,auto' },
    json: { type: 'string' },
  },
});
const actions = Number(values.actions);
const latencyMs = Number(values.latency);
const capacity = Number(values.capacity);
const rateLimit = Number(values['rate-limit']);
const levels = values.levels.split(',');
const loadBefore = loadavg()[0];
const scratch = scratchDir('concurrency');
const seeded = await seededWorld({ actions, parsers: Number(values.parsers), scratch });
const { data, jwtSecret, token, cfg } = seeded;
await seeded.server.close();

const server = await startServer({ data, jwtSecret, latencyMs, capacity, rateLimit });
const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
const rows = [];
for (const level of levels) {
  // A rate limit counts per second: each level starts with a fresh second.
  if (rateLimit > 0) await new Promise((r) => setTimeout(r, 1100));
  server.reset();
  const r = expectExit(await runMenuctl(['plan', cfg, '--detailed-exitcode', '--concurrency', level], { env, scratch }), 0, `plan --concurrency ${level}`);
  const counts = await server.settle();
  const throttled = Object.entries(counts.statuses ?? {}).filter(([s]) => s === '429').reduce((n, [, c]) => n + c, 0);
  rows.push({ level, ms: r.ms, cpuMs: r.cpuMs, peakKb: r.peakKb, requests: counts.requests, throttled });
  note(`--concurrency ${level}: ${secs(r.ms)}, ${counts.requests} requests, ${throttled} x 429`);
}
await server.close();

if (values.json) writeFileSync(values.json, `${JSON.stringify({ bench: 'concurrency', actions, latencyMs, capacity, rateLimit, loadBefore, rows }, null, 2)}\n`);
console.log(`## concurrency: no-change plan of ${actions} x ${values.parsers}, server --latency ${latencyMs} --capacity ${capacity}${rateLimit > 0 ? ` --rate-limit ${rateLimit}` : ''}\n`);
console.log(table(['--concurrency', 'wall', 'CPU', 'requests', '429s', 'peak RSS'],
  rows.map((r) => [r.level, secs(r.ms), secs(r.cpuMs), String(r.requests), String(r.throttled), mb(r.peakKb)])));
console.log(`\nmachine load (1-min average) before / after: ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`);
