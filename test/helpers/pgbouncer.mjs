// A real pgbouncer in front of a test PostgreSQL (./postgres.mjs), for the tests of what a pooler
// does to the state backend's locks and connections. pgbouncer is not on npm, so:
//  - `pgbouncer` on PATH or in /usr/sbin is used as it is;
//  - otherwise, where Debian/Ubuntu's apt is (CI runners, most containers), the package and the
//    libraries it needs that this machine lacks are fetched with `apt-get download` (no root, no
//    install) and unpacked with `dpkg-deb -x` into a shared cache directory, and the binary runs
//    with LD_LIBRARY_PATH pointing at them; `ldd` says which are missing, before and after.
// The cache lives under /tmp, not node_modules: pgbouncer, like PostgreSQL, refuses to run as
// root, so as root it runs as the same unprivileged user as the server, which must reach it.
// Each pooler runs in a fresh temporary directory (its config and auth file) on a free loopback
// port, with the stock settings but those named here (no ignore_startup_parameters), and dies
// with the test process (setpriv --pdeathsig), like the server.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { alive, baseDir, exited, freePort, runAs, wrap } from './postgres.mjs';

const PREFIX = 'menuctl-pgbouncer-';
const READY_TIMEOUT_MS = 15_000;

/** A binary on PATH or in the usual sbin directories, or null. */
function onPath(name) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      if (dir && statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** Libraries `ldd` cannot find for `bin` (with `env`'s LD_LIBRARY_PATH). */
function missingLibraries(bin, env = {}) {
  const out = execFileSync('ldd', [bin], { encoding: 'utf8', env: { ...process.env, ...env } });
  return [...out.matchAll(/^\s*(\S+) => not found/gm)].map((m) => m[1]);
}

function installed(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** Directories below `root` that hold shared libraries. */
function libraryDirs(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.so(\.\d+)*$/.test(entry.name) && !found.includes(dir)) found.push(dir);
    }
  };
  walk(root);
  return found;
}

/**
 * Downloads pgbouncer and the libraries it depends on that are not installed here, unpacked
 * into `scratch/root`. Only lib* dependencies are fetched: the rest (init scripts, postgresql-
 * common) are not needed to run the binary.
 */
function download(scratch) {
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  run('apt-get', ['download', 'pgbouncer']);
  const depends = run('apt-cache', ['depends', '--no-recommends', '--no-suggests', '--no-enhances', 'pgbouncer']);
  // `Depends: libc-ares2` lines; alternatives (`|Depends:`, indented `  libelogind0`) are skipped:
  // the first of each is what the machine has, when it has it.
  const libs = [...depends.matchAll(/^\s+Depends: (lib\S+)$/gm)].map((m) => m[1]).filter((pkg) => !installed(pkg));
  if (libs.length > 0) run('apt-get', ['download', ...libs]);
  const root = join(scratch, 'root');
  for (const deb of readdirSync(scratch).filter((f) => f.endsWith('.deb'))) run('dpkg-deb', ['-x', deb, root]);
  return root;
}

/**
 * Where pgbouncer is, and the env it needs; throws saying why it cannot be had. The fetched copy
 * is made once per machine and renamed into place, so two test files fetching at once both end
 * with a complete one.
 */
export function locatePgbouncer() {
  const found = onPath('pgbouncer');
  if (found) return { bin: found, env: {} };
  if (platform() !== 'linux') throw new Error(`pgbouncer is not installed, and fetching it is done only with apt on Linux (this is ${platform()})`);
  if (!onPath('apt-get') || !onPath('dpkg-deb') || !onPath('ldd')) throw new Error('pgbouncer is not installed, and apt-get, dpkg-deb or ldd is missing to fetch it: install pgbouncer');
  const cache = join('/tmp', `${PREFIX}cache-${platform()}-${arch()}`);
  const bin = join(cache, 'root', 'usr', 'sbin', 'pgbouncer');
  if (!existsSync(bin)) {
    const scratch = mkdtempSync(`${cache}.`);
    try {
      download(scratch);
      chmodSync(scratch, 0o755);
      renameSync(scratch, cache);
    } catch (err) {
      rmSync(scratch, { recursive: true, force: true });
      if (!existsSync(bin)) {
        throw new Error(`pgbouncer is not installed and could not be fetched with apt-get download (is the package index there? apt-get update): ${err.stderr?.toString().trim() || err.message}`);
      }
    }
  }
  const env = { LD_LIBRARY_PATH: [...libraryDirs(join(cache, 'root')), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') };
  const missing = missingLibraries(bin, env);
  if (missing.length > 0) throw new Error(`the fetched pgbouncer still misses ${missing.join(', ')}: install pgbouncer`);
  return { bin, env };
}

/** Removes the directories of poolers whose test process died (the pooler died with it). */
function sweepLeftovers(base) {
  for (const name of readdirSync(base)) {
    if (!name.startsWith(PREFIX) || name.startsWith(`${PREFIX}cache-`)) continue;
    const dir = join(base, name);
    try {
      const owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(dir, { recursive: true, force: true });
    } catch {
      // being created or removed by someone else, or not ours: leave it
    }
  }
}

const quote = (s) => `"${s.replaceAll('"', '""')}"`;

/**
 * Starts pgbouncer in front of `server` (./postgres.mjs) with `poolMode`; `users` may log in with
 * their password (SCRAM, checked by pgbouncer against the auth file, then by PostgreSQL).
 * `settings`: more `key = value` lines for [pgbouncer], e.g. { default_pool_size: 1 }.
 */
export async function startPgbouncer({ server, poolMode, users, settings = {} }) {
  const { bin, env } = locatePgbouncer();
  const as = runAs();
  const base = baseDir(as);
  sweepLeftovers(base);
  const dir = mkdtempSync(join(base, PREFIX));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(join(dir, 'owner.pid'), String(process.pid));
    const authFile = join(dir, 'userlist.txt');
    writeFileSync(authFile, users.map((u) => `${quote(u.name)} ${quote(u.password)}\n`).join(''), { mode: 0o600 });
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const config = join(dir, 'pgbouncer.ini');
      const lines = {
        listen_addr: '127.0.0.1', listen_port: port, unix_socket_dir: '', auth_type: 'scram-sha-256', auth_file: authFile,
        pool_mode: poolMode, default_pool_size: 5, max_client_conn: 100, logfile: '', pidfile: '', ...settings,
      };
      writeFileSync(config, `[databases]\n* = host=127.0.0.1 port=${server.port}\n\n[pgbouncer]\n${Object.entries(lines).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`);
      if (as) for (const f of [dir, authFile, config]) chownSync(f, as.uid, as.gid);
      chmodSync(dir, 0o700);
      const cmd = wrap([bin, config], as, true, 'TERM');
      const child = spawn(cmd.cmd, cmd.args, { cwd: dir, uid: cmd.uid, gid: cmd.gid, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, LC_ALL: 'C' } });
      let log = '';
      const onLine = (line) => (log = (log + line + '\n').slice(-8_000));
      createInterface({ input: child.stdout }).on('line', onLine);
      createInterface({ input: child.stderr }).on('line', onLine);
      child.on('error', (err) => (log += `\n${err.message}`));
      const onExit = () => child.kill('SIGTERM');
      process.on('exit', onExit);
      const user = users[0];
      const url = `postgres://${encodeURIComponent(user.name)}:${encodeURIComponent(user.password)}@127.0.0.1:${port}/${server.database}`;
      try {
        await waitReady(url, child, () => log);
      } catch (err) {
        child.kill('SIGKILL');
        await exited(child);
        process.off('exit', onExit);
        if (attempt < 3 && /Address already in use/i.test(log)) continue;
        throw err;
      }
      let stopped;
      return {
        url, port, poolMode,
        log: () => log,
        stop: () => (stopped ??= (async () => {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
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

async function waitReady(url, child, log) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`pgbouncer exited before accepting connections (${child.signalCode ?? `exit ${child.exitCode}`}): ${log().trim()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (err) {
      last = err;
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`pgbouncer did not accept connections within ${READY_TIMEOUT_MS} ms (${last?.message}): ${log().trim()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
