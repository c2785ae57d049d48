// Tenant fairness of the reference server (issue 10, item 4): the p50/p95 of a small GET by
// organization B (one action by id), alone and while organization A lists ~46,000 actions
// over and over (GET /api/actions, 2 at a time, from a separate load process). Seeds A's
// actions straight into the SQLite file (through the server's own store) before `menuctl
// serve` starts on it. docs/benchmarks.md "## server: tenant fairness" records runs.
//
//   node bench/server/fairness.mjs [--actions 46000] [--duration 8] [--listers 2]

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ROOT, scratchDir } from '../lib/paths.mjs';
import { seedTwoOrganizations } from '../lib/seed-store.mjs';
import { mintToken, startServer } from '../lib/server.mjs';
import { median, note, table } from '../lib/stats.mjs';

const { values: a } = parseArgs({
  options: {
    actions: { type: 'string', default: '46000' },
    duration: { type: 'string', default: '8' },
    listers: { type: 'string', default: '2' },
  },
});
const dir = scratchDir('fairness');
const data = join(dir, 'fair.sqlite');
const jwtSecret = 'bench-secret-not-for-production';

note(`seeding ${a.actions} actions of organization 1`);
const { db, probeId } = await seedTwoOrganizations({ dist: join(ROOT, 'dist'), data, actions: Number(a.actions) });
db.close();

const server = await startServer({ data, jwtSecret });
try {
  const tokenA = await mintToken({ jwtSecret, org: 1, scratch: dir });
  const tokenB = await mintToken({ jwtSecret, org: 2, scratch: dir });
  const probe = async (ms) => {
    const lat = [];
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const t0 = performance.now();
      const r = await request(`${server.url}/api/actions/${probeId}`, { headers: { authorization: tokenB } });
      await r.body.dump();
      if (r.statusCode !== 200) throw new Error(`probe answered ${r.statusCode}`);
      lat.push(performance.now() - t0);
    }
    return lat;
  };
  const ms = Number(a.duration) * 1000;
  const p = (xs, q) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
  const row = (label, xs, extra) => [label, xs.length, median(xs).toFixed(1), p(xs, 0.95).toFixed(1), p(xs, 1).toFixed(0), extra];

  await probe(500);
  note('B alone');
  const alone = await probe(ms);

  note(`B while A lists (${a.listers} at a time)`);
  const loader = spawn(process.execPath, [join(ROOT, 'bench/server/load.mjs'), '--url', server.url, '--method', 'GET',
    '--path', '/api/actions', '--concurrency', a.listers, '--duration', String(Number(a.duration) + 2), '--warmup', '0'],
  { env: { ...process.env, MENUCTL_TOKEN: tokenA }, stdio: ['ignore', 'pipe', 'inherit'] });
  const out = [];
  loader.stdout.on('data', (c) => out.push(c));
  await new Promise((r) => setTimeout(r, 1000));
  const contended = await probe(ms);
  await new Promise((r) => loader.once('exit', r));
  const listing = JSON.parse(Buffer.concat(out).toString().trim().split('\n').at(-1));

  console.log(table(['B: GET /api/actions/:id', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'A: GET /api/actions'], [
    row('alone', alone, ''),
    row(`while A lists ${a.actions}`, contended, `${listing.requests} listings, p50 ${Math.round(listing.p50)} ms`),
  ]));
} finally {
  await server.close();
}
