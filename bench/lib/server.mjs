// The reference server as a child process (`menuctl serve`), with request counting from its
// access log. The server exposes no stats over HTTP, so every line it prints per request
// (`<ISO time> <METHOD> <path> <status|RESET> <ms>ms`, src/server/handler.ts) is tallied here.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { MAIN, ROOT } from './paths.mjs';
import { runMenuctl, expectExit } from './cli.mjs';
import { createWorld, makeAgent } from './http.mjs';
import { actionBody, makeWorld, parserBody, worldYaml } from './world.mjs';

const ACCESS_LINE = /^(\S+) ([A-Z]+) (\S+) (\S+) ([\d.]+)ms$/;
const MARKER_PREFIX = '/api/__bench_marker_';

/** Collapses ids so routes can be tallied: /api/actions/abc/parsers -> /api/actions/:id/parsers. */
function routeOf(path) {
  return path
    .replace(/\/+$/, '')
    .replace(/^\/api\/(actions|parsers|apps)\/[^/]+/, '/api/$1/:id');
}

/**
 * Starts `menuctl serve --port P (default 0) --data FILE --jwt-secret S [--latency MS] [--capacity N] [--rate-limit N]` and resolves once it
 * printed its URL. Returns { url, requests(), byRoute(), reset(), settle(), close() }.
 */
export async function startServer({ data, jwtSecret, latencyMs = 0, port = 0, capacity = 0, rateLimit = 0 }) {
  const args = [MAIN, 'serve', '--port', String(port), '--data', data, '--jwt-secret', jwtSecret];
  if (latencyMs > 0) args.push('--latency', String(latencyMs));
  if (capacity > 0) args.push('--capacity', String(capacity));
  if (rateLimit > 0) args.push('--rate-limit', String(rateLimit));
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  // A bench that fails half-way must not leave a server behind.
  const reap = () => child.kill('SIGTERM');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  const stderr = [];
  child.stderr.on('data', (c) => stderr.push(c));
  let tally = { requests: 0, byRoute: {}, statuses: {} };
  const markerWaiters = new Map();
  const lines = createInterface({ input: child.stdout });

  const url = await new Promise((done, fail) => {
    const onExit = (code) => fail(new Error(`menuctl serve exited (${code}) before listening:\n${Buffer.concat(stderr)}`));
    child.once('exit', onExit);
    lines.once('line', (first) => {
      child.off('exit', onExit);
      const m = /^menuctl api listening on (http:\/\/\S+)$/.exec(first);
      if (m) done(m[1]);
      else fail(new Error(`unexpected first line from menuctl serve: ${first}`));
    });
  });

  lines.on('line', (line) => {
    const m = ACCESS_LINE.exec(line);
    if (!m) return;
    const [, time, method, path, status, ms] = m;
    if (path.startsWith(MARKER_PREFIX)) {
      markerWaiters.get(path)?.();
      return;
    }
    tally.requests++;
    // Wall-clock times (epoch ms) of the first request's arrival and the last answer.
    const end = Date.parse(time);
    tally.firstStart = Math.min(tally.firstStart ?? Infinity, end - Number(ms));
    tally.lastEnd = Math.max(tally.lastEnd ?? -Infinity, end);
    const key = `${method} ${routeOf(path)}`;
    tally.byRoute[key] = (tally.byRoute[key] ?? 0) + 1;
    tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
  });

  let markers = 0;
  return {
    url,
    /**
     * Waits until every request answered so far is counted: sends a marker request (not
     * counted) and waits for its log line; the log is written in order, so all earlier ones
     * are in.
     */
    async settle() {
      const path = `${MARKER_PREFIX}${markers++}`;
      let timer;
      const seen = new Promise((r, fail) => {
        markerWaiters.set(path, r);
        timer = setTimeout(() => fail(new Error(`no access-log line for ${path} within 30 s: is the server's access log on?`)), 30_000);
      });
      const res = await request(`${url}${path}`);
      await res.body.dump();
      await seen.finally(() => clearTimeout(timer));
      markerWaiters.delete(path);
      return { ...tally, byRoute: { ...tally.byRoute }, statuses: { ...tally.statuses } };
    },
    reset() {
      tally = { requests: 0, byRoute: {}, statuses: {} };
    },
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** A JWT for `org` from `menuctl token`, signed with the server's secret. */
export async function mintToken({ jwtSecret, org = 1, scratch }) {
  const r = expectExit(
    await runMenuctl(['token', '--org', String(org), '--jwt-secret', jwtSecret, '--data', ':memory:'], { scratch }),
    0, 'menuctl token');
  return r.stdout.trim();
}

/**
 * A reference server's database holding N actions x P parsers, and the config that describes
 * them: `{ data, jwtSecret, token, cfg, server }`, the seeding server still running (close it, or
 * restart on `data` with other flags). Seeds at `concurrency` with bare undici.
 */
export async function seededWorld({ actions, parsers, concurrency = 8, scratch, name = 'bench' }) {
  const data = join(scratch, `${name}.sqlite`);
  const jwtSecret = randomBytes(32).toString('hex');
  const world = makeWorld({ actions, parsersPerAction: parsers });
  const cfg = join(scratch, `${name}.yaml`);
  writeFileSync(cfg, worldYaml(world));
  const token = await mintToken({ jwtSecret, scratch });
  const server = await startServer({ data, jwtSecret });
  const agent = makeAgent(concurrency);
  await createWorld({ url: server.url, token, agent }, world, concurrency, { actionBody, parserBody });
  await agent.close();
  return { data, jwtSecret, token, cfg, server, world };
}
