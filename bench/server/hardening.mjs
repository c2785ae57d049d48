// One client against the others (issue 28 items 6 and 7): organization B's small GET (one
// action by id, from 127.0.0.2), alone and while a client at 127.0.0.1
//   - walks organization A's 50,000 actions page by page, each URL with a throwaway parameter
//     (so neither the page nor the query string repeats an answer the cache kept);
//   - sends wrong passwords to POST /api/authenticate as fast as it can (B's probe is then a
//     real login instead);
//   - holds 1,200 idle connections (B's probe: requests on fresh connections).
// `--dist DIR` runs another build (e.g. the commit before, built into /tmp) for a before/after.
// docs/benchmarks.md "## server: one client against the others" records runs.
//
//   node bench/server/hardening.mjs [--actions 50000] [--duration 6] [--dist dist]

import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ROOT, scratchDir } from '../lib/paths.mjs';
import { seedTwoOrganizations } from '../lib/seed-store.mjs';
import { note, table } from '../lib/stats.mjs';

const { values: a } = parseArgs({
  options: {
    actions: { type: 'string', default: '50000' },
    duration: { type: 'string', default: '6' },
    dist: { type: 'string', default: join(ROOT, 'dist') },
  },
});
const DIST = resolve(a.dist);
const ms = Number(a.duration) * 1000;
const dir = scratchDir('hardening');
const data = join(dir, 'h.sqlite');
const jwtSecret = 'bench-secret-not-for-production';
const EMAIL = 'ops@example.com';
const PASSWORD = 'correct horse battery staple';

note(`seeding ${a.actions} actions of organization 1 (${DIST})`);
const { TokenAuthority } = await import(join(DIST, 'server/auth.js'));
const { db, store, probeId } = await seedTwoOrganizations({ dist: DIST, data, actions: Number(a.actions) });
// What one page costs the store when no answer is kept (after any write): the old store
// returns the whole list as an array to slice, the new one a source that reads one page.
const pageCost = [];
for (const page of [1, 25, 50]) {
  const times = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const list = store.list(1, undefined);
    const rows = Array.isArray(list) ? list.slice((page - 1) * 1000, page * 1000) : list.rows(1000, (page - 1) * 1000);
    if (!Array.isArray(list)) list.count();
    if (rows.length !== 1000) throw new Error(`page ${page}: ${rows.length} rows`);
    times.push(performance.now() - t0);
  }
  pageCost.push(`page ${page}: ${Math.min(...times).toFixed(1)} ms`);
}
note(`store read of one page of 1,000 (best of 5): ${pageCost.join(', ')}`);
db.close();

const child = spawn(process.execPath, [join(DIST, 'cli/main.js'), 'serve', '--port', '0', '--data', data, '--jwt-secret', jwtSecret,
  '--no-access-log', '--user', `${EMAIL}:${PASSWORD}:2`], { stdio: ['ignore', 'pipe', 'inherit'] });
process.once('exit', () => child.kill('SIGTERM'));
// Interrupted: still stop the server and remove the scratch directory (exit handlers).
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => process.exit(130));
const base = await new Promise((done, fail) => {
  createInterface({ input: child.stdout }).once('line', (line) => {
    const m = /listening on (\S+)$/.exec(line);
    m ? done(new URL(m[1])) : fail(new Error(line));
  });
});
const authority = new TokenAuthority(jwtSecret);
const tokenA = await authority.mint(1);
const tokenB = await authority.mint(2);

const agentFor = (localAddress) => new Agent({ keepAlive: true, maxSockets: 8, localAddress });
const agentA = agentFor('127.0.0.1');
const agentB = agentFor('127.0.0.2');

/** One request; resolves { status, ms } ({ status: 'closed' } when the connection was cut). */
function call({ path, method = 'GET', token, body, agent }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: base.hostname, port: base.port, path, method, agent,
      headers: { ...(token ? { authorization: token } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
    });
    req.on('error', () => resolve({ status: 'closed', ms: performance.now() - t0 }));
    req.end(payload);
  });
}

const q = (xs, p) => { const s = [...xs].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN; };
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

/** Runs `one` back to back for `ms` with `workers` in parallel; the answers. */
async function loop(one, workers, end) {
  const out = [];
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; performance.now() < end; i++) out.push(await one(i * workers + w));
  }));
  return out;
}

const probeGet = (agent = agentB) => () => call({ path: `/api/actions/${probeId}`, token: tokenB, agent });
const probeLogin = () => call({ path: '/api/authenticate', method: 'POST', body: { email: EMAIL, password: PASSWORD }, agent: agentB });

async function contended(label, probe, load, loadWorkers) {
  const end = performance.now() + ms;
  const [probes, loads] = await Promise.all([loop(probe, 1, end), load ? loop(load, loadWorkers, end) : []]);
  const ok = probes.filter((r) => r.status === 200).map((r) => r.ms);
  const statuses = {};
  for (const r of loads) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return [label, `${ok.length}/${probes.length}`, fmt(q(ok, 0.5)), fmt(q(ok, 0.99)), fmt(q(ok, 1)),
    load ? `${loads.length} (${Object.entries(statuses).map(([k, v]) => `${k}: ${v}`).join(', ')}), p50 ${fmt(q(loads.map((r) => r.ms), 0.5))} ms` : ''];
}

const rows = [];
try {
  await loop(probeGet(), 1, performance.now() + 300);
  note('B alone');
  rows.push(await contended('B GET alone', probeGet(), null, 0));
  const pages = Math.ceil(Number(a.actions) / 1000);
  note('B while A walks pages with throwaway parameters');
  rows.push(await contended(`B GET, A walks ${pages} pages ?x=rand`, probeGet(),
    (i) => call({ path: `/api/actions?page=${(i % pages) + 1}&x=${Math.random()}`, token: tokenA, agent: agentA }), 2));
  note('B logs in alone');
  rows.push(await contended('B login alone', probeLogin, null, 0));
  note('B logs in while A guesses passwords');
  rows.push(await contended('B login, A guesses passwords', probeLogin,
    (i) => call({ path: '/api/authenticate', method: 'POST', body: { email: EMAIL, password: `guess ${i}` }, agent: agentA }), 4));
  note('B while A holds 1,200 idle connections');
  const idle = await Promise.all(Array.from({ length: 1200 }, () => new Promise((r) => {
    const s = connect({ host: base.hostname, port: Number(base.port), localAddress: '127.0.0.1' }, () => r(s));
    s.on('error', () => r(s));
    s.resume();
  })));
  rows.push(await contended('B GET (new connection each), A holds 1,200 idle', () => new Promise((resolve) => {
    const t0 = performance.now();
    const req = request({ host: base.hostname, port: base.port, path: `/api/actions/${probeId}`, localAddress: '127.0.0.2', agent: false,
      headers: { authorization: tokenB } }, (res) => { res.resume(); res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 })); });
    req.setTimeout(30_000, () => req.destroy());
    req.on('error', () => resolve({ status: 'closed', ms: performance.now() - t0 }));
    req.end();
  }), null, 0));
  for (const s of idle) s.destroy();
  console.log(table(['B: probe', 'ok/sent', 'p50 ms', 'p99 ms', 'max ms', 'A: requests (statuses), p50'], rows));
} finally {
  child.kill('SIGTERM');
}
