#!/usr/bin/env node
// Benchmark: what each backend of the applied-state record costs (issue 23; docs/planning.md
// "Where the record lives (state backends)"). For each backend (file, git on a local bare
// repository, PostgreSQL) and each server latency, N times on a fresh organization and a fresh,
// empty state: `menuctl apply --yes` of N actions x P parsers (default 1,000 x 5) from empty, then
// a no-change `plan --detailed-exitcode` (must exit 0), then a no-change `apply --yes`. The built
// CLI runs as a child process with MENUCTL_STATE set; results in docs/benchmarks.md.
//
//   node bench/state-backends.mjs [--backends file,git,postgres] [--actions 1000] [--parsers 5]
//     [--runs 3] [--latency 0,20] [--concurrency 8] [--json FILE]
//
// How each backend's reads and writes are counted (nothing in src/ knows it is measured):
//  - file: the CLI runs under `strace -f --seccomp-bpf -e trace=openat,rename,renameat,renameat2,unlink,unlinkat`
//    in one extra run per command (strace slows every traced syscall, so the timed runs go
//    without it): reads are opens of the record for reading (a record not yet written is found
//    absent by an lstat and not opened: not counted), writes are renames onto it (the atomic
//    write), lock ops the lock file's exclusive create and its removal.
//  - git: the remote is a local bare repository; git's own config from the environment
//    (GIT_CONFIG_COUNT: remote.origin.uploadpack / receivepack) points every fetch and push of
//    the backend's scratch repository at a one-line shell wrapper that logs it, then execs the real
//    git-upload-pack / git-receive-pack. Reads are upload-pack sessions (fetch, ls-remote), writes
//    receive-pack sessions (pushes); the branch's new commits, by subject, say which were record
//    writes and which lock / unlock. The wrapper costs one `sh` start (~1-2 ms) per fetch or push.
//  - PostgreSQL: a server started for the bench (test/helpers/postgres.mjs, logStatements) with log_statement=all;
//    reads are the record's SELECT, writes the compare-and-swap UPDATE/INSERT (one history row
//    each), lock ops the advisory lock and lock-row statements; every statement is a round trip.
//    Each run uses its own tables (`?table=bench_N`).
// API requests come from the reference server's access log (bench/lib/server.mjs).

import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { expectExit, runMenuctl, runNode } from './lib/cli.mjs';
import { MAIN, scratchDir } from './lib/paths.mjs';
import { startPostgres } from '../test/helpers/postgres.mjs';
import { mintToken, startServer } from './lib/server.mjs';
import { median, note, secs, table } from './lib/stats.mjs';
import { makeWorld, worldYaml } from './lib/world.mjs';

// --backends is this bench's own; the rest are the shared options.
const argv = process.argv.slice(2);
let backends = ['file', 'git', 'postgres'];
const at = argv.indexOf('--backends');
if (at !== -1) {
  backends = argv[at + 1].split(',').map((s) => s.trim()).filter(Boolean);
  argv.splice(at, 2);
}
for (const b of backends) if (!['file', 'git', 'postgres'].includes(b)) throw new Error(`--backends: unknown backend ${b} (file, git, postgres)`);
const opt = benchOptions(argv);
const loadBefore = loadavg();
const scratch = scratchDir('state');
const jwtSecret = randomBytes(32).toString('hex');
const cfg = join(scratch, 'bench.yaml');
writeFileSync(cfg, worldYaml(makeWorld({ actions: opt.actions, parsersPerAction: opt.parsers })));
const token = await mintToken({ jwtSecret, scratch });
const conc = ['--concurrency', String(opt.concurrency)];
const COMMANDS = [
  { name: `apply ${opt.actions}x${opt.parsers}`, args: ['apply', cfg, '--yes', ...conc] },
  { name: 'no-change plan', args: ['plan', cfg, '--detailed-exitcode', ...conc] },
  { name: 'no-change apply', args: ['apply', cfg, '--yes', ...conc] },
];

const hasStrace = spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;

// ---- git: a wrapper per service that logs each session, then runs the real one.
const gitExecPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
const gitLog = join(scratch, 'git-sessions.log');
function gitWrapper(service) {
  const file = join(scratch, `count-${service}`);
  writeFileSync(file, `#!/bin/sh\necho ${service} >> '${gitLog}'\nexec '${join(gitExecPath, service)}' "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}
const gitEnv = {
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'remote.origin.uploadpack', GIT_CONFIG_VALUE_0: gitWrapper('git-upload-pack'),
  GIT_CONFIG_KEY_1: 'remote.origin.receivepack', GIT_CONFIG_VALUE_1: gitWrapper('git-receive-pack'),
};
const gitSessions = () => {
  const lines = existsSync(gitLog) ? readFileSync(gitLog, 'utf8').split('\n') : [];
  return { reads: lines.filter((l) => l === 'git-upload-pack').length, writes: lines.filter((l) => l === 'git-receive-pack').length };
};
const BRANCH = 'menuctl-state';
function gitSubjects(repo) {
  const r = spawnSync('git', ['--git-dir', repo, 'log', '--format=%s', BRANCH], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : []; // no branch yet: nothing written
}

// ---- file: strace's record of the syscalls on the state directory.
function fileCounts(traceFile, dir) {
  const record = `${dir}/menuctl.lock`;
  const c = { reads: 0, writes: 0, lockOps: 0 };
  for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
    // A failed open counts too (the first read of a record not yet written is an ENOENT).
    if (!line.includes(dir)) continue;
    if (/\bopenat\(/.test(line) && line.includes(`"${record}"`) && /O_RDONLY/.test(line)) c.reads++;
    else if (/\brename(at2?)?\(/.test(line) && new RegExp(`, (AT_FDCWD, )?"${record.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).test(line)) c.writes++;
    else if (/\.lock-info"/.test(line) && !/\.takeover"/.test(line) && (/O_EXCL/.test(line) || /\bunlink(at)?\(/.test(line))) c.lockOps++;
  }
  return c;
}

// ---- PostgreSQL: one server for the bench, each run in its own tables.
let postgres = null;
let postgresSkipped = null;
if (backends.includes('postgres')) {
  try {
    postgres = await startPostgres({ logStatements: true });
    note(`PostgreSQL started in ${postgres.startMs} ms`);
  } catch (err) {
    postgresSkipped = err.message.split('\n')[0];
    note(`PostgreSQL could not start, its rows are skipped: ${postgresSkipped}`);
  }
}
function pgCounts(statements) {
  const c = { reads: 0, writes: 0, lockOps: 0, statements: statements.length };
  for (const s of statements) {
    if (/^SELECT body, version/.test(s)) c.reads++;
    else if (/^WITH w AS/.test(s)) c.writes++;
    // The lock's transaction (BEGIN ...; SET LOCAL ...), the advisory lock, the lock row, its
    // release, and verify (one query on the lock's connection before every API write).
    else if (/^BEGIN |^COMMIT|^ROLLBACK|advisory_(xact_)?(un)?lock|pg_try_advisory|_locks|^SELECT pg_backend_pid\(\)/.test(s)) c.lockOps++;
  }
  return c;
}

let runId = 0;
/** A fresh state of `backend` for one run: its URL, extra env, and how to count. */
function freshState(backend) {
  const dir = join(scratch, `state-${runId++}`);
  mkdirSync(dir);
  if (backend === 'file') return { url: `file:${dir}/menuctl.lock`, env: {}, dir };
  if (backend === 'git') {
    const repo = join(dir, 'state.git');
    execFileSync('git', ['init', '--bare', '--quiet', repo]);
    return { url: `git+file://${repo}#${BRANCH}`, env: gitEnv, dir, repo };
  }
  const u = new URL(postgres.url);
  u.searchParams.set('table', `bench_${runId}`);
  return { url: u.toString(), env: {}, dir };
}

/** Runs one command against `state`, returns { ms, cpuMs, requests } and the backend's counts. */
async function measured(backend, state, server, command, { trace = false } = {}) {
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token, MENUCTL_STATE: state.url, ...state.env };
  server.reset();
  const git0 = backend === 'git' ? { ...gitSessions(), commits: gitSubjects(state.repo).length } : null;
  const pg0 = backend === 'postgres' ? postgres.statements().length : 0;
  let r;
  let traceFile;
  if (trace) {
    traceFile = join(scratch, `trace-${runId}-${command.name.replace(/\W+/g, '-')}.txt`);
    r = await runStraced(traceFile, command.args, env);
  } else {
    r = await runMenuctl(command.args, { env, scratch });
  }
  // apply: 0; the plan after it: --detailed-exitcode, 0 = no changes.
  expectExit(r, 0, `${backend}: menuctl ${command.name}`);
  const api = await server.settle();
  const out = { ms: r.ms, cpuMs: r.cpuMs, requests: api.requests };
  if (backend === 'git') {
    const now = gitSessions();
    const subjects = gitSubjects(state.repo);
    const added = subjects.slice(0, subjects.length - git0.commits);
    Object.assign(out, {
      reads: now.reads - git0.reads,
      writes: added.filter((s) => s.startsWith('record for')).length,
      lockOps: added.filter((s) => /^(un)?lock /.test(s)).length,
      pushes: now.writes - git0.writes,
    });
  } else if (backend === 'postgres') {
    await postgres.settle();
    Object.assign(out, pgCounts(postgres.statements().slice(pg0)));
  } else if (trace) {
    Object.assign(out, fileCounts(traceFile, state.dir));
  }
  return out;
}

/** `strace ... node dist/cli/main.js ARGS` (counts only: strace stops the child at every traced syscall). */
function runStraced(traceFile, args, env) {
  return runNode(MAIN, args, {
    env,
    scratch,
    wrapper: ['strace', '-f', '--seccomp-bpf', '-qq', '-e', 'trace=openat,rename,renameat,renameat2,unlink,unlinkat', '-o', traceFile],
  });
}

const results = [];
for (const latencyMs of opt.latencies) {
  for (const backend of backends) {
    if (backend === 'postgres' && postgres === null) continue;
    const runs = COMMANDS.map(() => []);
    const passes = backend === 'file' && hasStrace ? opt.runs + 1 : opt.runs;
    for (let i = 0; i < passes; i++) {
      const trace = backend === 'file' && i === opt.runs; // the extra, counted file run
      const data = join(scratch, `api-${runId}.sqlite`);
      const server = await startServer({ data, jwtSecret, latencyMs });
      const state = freshState(backend);
      try {
        const line = [];
        for (const [k, command] of COMMANDS.entries()) {
          const m = await measured(backend, state, server, command, { trace });
          runs[k].push({ ...m, trace });
          line.push(`${command.name} ${secs(m.ms)} r${m.reads ?? '?'} w${m.writes ?? '?'} l${m.lockOps ?? '?'} api ${m.requests}`);
        }
        note(`${backend} latency ${latencyMs} run ${i + 1}${trace ? ' (strace, counts only)' : ''}: ${line.join('; ')}`);
      } finally {
        await server.close();
        for (const s of ['', '-wal', '-shm']) rmSync(`${data}${s}`, { force: true });
        rmSync(state.dir, { recursive: true, force: true });
      }
    }
    for (const [k, command] of COMMANDS.entries()) {
      const timed = runs[k].filter((m) => !m.trace);
      const counted = backend === 'file' ? runs[k].filter((m) => m.trace) : timed;
      const med = (key) => (counted.length && counted[0][key] !== undefined ? median(counted.map((m) => m[key])) : null);
      results.push({
        latencyMs, backend, command: command.name,
        wallMs: median(timed.map((m) => m.ms)), cpuMs: median(timed.map((m) => m.cpuMs ?? 0)),
        wallRunsMs: timed.map((m) => Math.round(m.ms)),
        reads: med('reads'), writes: med('writes'), lockOps: med('lockOps'), pushes: med('pushes'), statements: med('statements'),
        writesRuns: counted.map((m) => m.writes),
        requests: median(timed.map((m) => m.requests)),
      });
    }
  }
}
await postgres?.stop();

const loadAfter = loadavg();
const report = {
  bench: 'state-backends', actions: opt.actions, parsersPerAction: opt.parsers, concurrency: opt.concurrency, runs: opt.runs,
  cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverage: { before: loadBefore, after: loadAfter },
  postgresSkipped, fileCountsBy: hasStrace ? 'strace (one extra run)' : null, results,
};
if (opt.json) writeFileSync(opt.json, `${JSON.stringify(report, null, 2)}\n`);

const n = (v) => (v === null || v === undefined ? 'n/a' : String(v));
console.log(`## state backends: ${opt.actions} actions x ${opt.parsers} parsers, --concurrency ${opt.concurrency}, wall = median of ${opt.runs}\n`);
console.log(table(
  ['latency', 'backend', 'command', 'wall', 'CPU', 'state reads', 'record writes', 'lock ops', 'API requests'],
  results.map((r) => [`${r.latencyMs} ms`, r.backend, r.command, secs(r.wallMs), secs(r.cpuMs), n(r.reads),
    r.writesRuns.length > 1 ? `${n(r.writes)} (${r.writesRuns.join(', ')})` : n(r.writes),
    r.backend === 'postgres' ? `${n(r.lockOps)} (${n(r.statements)} statements in all)` : r.backend === 'git' ? `${n(r.lockOps)} commits (${n(r.pushes)} pushes in all)` : n(r.lockOps),
    String(r.requests)]),
));
if (postgresSkipped) console.log(`\nPostgreSQL skipped: ${postgresSkipped}`);
if (backends.includes('file') && !hasStrace) console.log('\nfile backend: strace not found, its reads and writes are not counted');
console.log(`\n${cpus().length} x ${cpus()[0]?.model}; load average (1 min) before / after: ${loadBefore[0].toFixed(1)} / ${loadAfter[0].toFixed(1)}`);
