// Load generator for the reference server, run as its own process so it does not share the
// server's event loop. One phase: METHOD PATH at a fixed concurrency over keep-alive
// connections, bounded by --duration seconds and --max requests. Prints one JSON line.
// The token comes from MENUCTL_TOKEN (never argv: argv is visible to every user of the machine).
//
//   MENUCTL_TOKEN=... node bench/server/load.mjs --url http://127.0.0.1:8080 \
//     --method GET --path /api/actions/abcd1234 --concurrency 32 --duration 5 --max 100000

import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values: a } = parseArgs({
  options: {
    url: { type: 'string' },
    method: { type: 'string', default: 'GET' },
    path: { type: 'string' },
    body: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    duration: { type: 'string', default: '5' },
    max: { type: 'string', default: '100000' },
    warmup: { type: 'string', default: '0.5' },
  },
});

const url = new URL(a.url);
if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.hostname !== '[::1]') {
  throw new Error('the load generator only targets loopback');
}
const concurrency = Number(a.concurrency);
const durationMs = Number(a.duration) * 1000;
const max = Number(a.max);
const warmupMs = Number(a.warmup) * 1000;
const headers = { authorization: process.env.MENUCTL_TOKEN ?? '' };
if (a.body) headers['content-type'] = 'application/json';
// The body template may contain {n}: replaced by a counter so writes stay unique.
const bodyFor = (n) => (a.body ? a.body.replaceAll('{n}', String(n)) : undefined);

const pool = new Pool(url.origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 10_000 });

// Shared by warm-up and measurement, so {n} never repeats within a run.
let counter = 0;

async function phase(ms, limit, record) {
  const latencies = [];
  const statuses = {};
  let sent = 0;
  const end = performance.now() + ms;
  async function worker() {
    while (sent < limit && performance.now() < end) {
      sent++;
      const n = counter++;
      const t0 = performance.now();
      const res = await pool.request({ method: a.method, path: a.path, headers, body: bodyFor(n) });
      await res.body.dump();
      const dt = performance.now() - t0;
      if (record) {
        latencies.push(dt);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      }
    }
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { elapsed: performance.now() - t0, latencies, statuses };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

await phase(warmupMs, Number.MAX_SAFE_INTEGER, false);
const r = await phase(durationMs, max, true);
const sorted = r.latencies.sort((x, y) => x - y);
await pool.close();
process.stdout.write(`${JSON.stringify({
  method: a.method, path: a.path.replace(/[0-9a-f]{8}/, ':id'), concurrency,
  requests: sorted.length, seconds: +(r.elapsed / 1000).toFixed(2),
  rps: Math.round(sorted.length / (r.elapsed / 1000)),
  p50: +pct(sorted, 50).toFixed(2), p95: +pct(sorted, 95).toFixed(2), p99: +pct(sorted, 99).toFixed(2),
  statuses: r.statuses,
})}\n`);
