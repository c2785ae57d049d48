#!/usr/bin/env node
// How long menuctl takes to stop against an API that accepts requests and never answers
// (issue 28 item 5), timings the tests do not assert:
//   - apply --yes stalled on a create: SIGTERM -> exit (expected: the grace, 2 s, plus a little)
//   - apply --yes stalled on its first read: SIGTERM -> exit (expected: at once)
//   - plan against a silent API: start -> exit with MENUCTL_READ_TIMEOUT=SECS (default 5)
// A proxy in front of the reference server passes every request on except those it holds.
// Needs `npm run build`.
//
//   node bench/interrupt.mjs [--read-timeout SECS]

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { MAIN, scratchDir } from './lib/paths.mjs';
import { mintToken, startServer } from './lib/server.mjs';
import { secs } from './lib/stats.mjs';

const i = process.argv.indexOf('--read-timeout');
const READ_TIMEOUT = i === -1 ? '5' : process.argv[i + 1];
const scratch = scratchDir('interrupt');
const jwtSecret = 'bench-interrupt-secret-0123456789abcdef';
const upstream = await startServer({ data: join(scratch, 'api.sqlite'), jwtSecret });
const token = await mintToken({ jwtSecret, org: 1, scratch });
writeFileSync(join(scratch, 'menuctl.yaml'), [
  'version: 1', 'actions:',
  '  - name: "held"', '    root_code: "*144#"', '    transport_type: ussd', '    operators: [1662]', '    steps:', '      - press: 1',
].join('\n') + '\n');

/** A proxy holding the requests `hold` picks; `onHeld` is told when one arrives. */
async function proxy(hold, onHeld) {
  const server = createServer((req, res) => {
    if (hold(req)) { onHeld(); req.resume(); return; }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const r = await fetch(upstream.url + req.url, {
        method: req.method, headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        ...(body.length ? { body } : {}),
      });
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text());
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => { server.closeAllConnections(); server.close(); } };
}

async function run(args, hold, { signal, env = {} }) {
  let held;
  const heldOnce = new Promise((r) => { held = r; });
  const api = await proxy(hold, () => held());
  const t0 = performance.now();
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: scratch, stdio: 'ignore',
    env: { PATH: process.env.PATH, NO_COLOR: '1', MENUCTL_API_URL: api.url, MENUCTL_TOKEN: token, ...env },
  });
  const exited = new Promise((r) => child.on('exit', (code) => r({ code, at: performance.now() })));
  let from = t0;
  if (signal) {
    await heldOnce;
    from = performance.now();
    child.kill('SIGTERM');
  }
  const { code, at } = await exited;
  api.close();
  return { code, ms: at - from };
}

const rows = [
  ['apply --yes, held on the create, SIGTERM -> exit', await run(['apply', '--yes', 'menuctl.yaml'], (r) => r.method === 'POST', { signal: true })],
  ['apply --yes, held on the first read, SIGTERM -> exit', await run(['apply', '--yes', 'menuctl.yaml'], (r) => r.method === 'GET', { signal: true })],
  [`plan, every read held, MENUCTL_READ_TIMEOUT=${READ_TIMEOUT}: start -> exit`, await run(['plan', 'menuctl.yaml'], (r) => r.method === 'GET', { env: { MENUCTL_READ_TIMEOUT: READ_TIMEOUT } })],
];
for (const [what, r] of rows) console.log(`${what.padEnd(70)} ${secs(r.ms).padStart(8)}  (exit ${r.code})`);
await upstream.close();
