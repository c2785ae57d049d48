// Runs the built CLI as a child process and measures it: wall time from spawn to exit, the
// child's peak RSS, and its CPU time (user + system: steadier than wall time when other
// processes share the two cores). Both come from GNU time (`/usr/bin/time -f '%M %U %S'`) when
// present; otherwise a preload (rss-probe.mjs) reports process.resourceUsage() at exit.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MAIN, ROOT } from './paths.mjs';

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);
let seq = 0;

/**
 * Runs `node dist/cli/main.js ...args`. `nodeArgs` go before the script (e.g. --cpu-prof).
 * Resolves { code, stdout, stderr, ms, peakKb, cpuMs } whatever the exit code: callers check it.
 */
export function runMenuctl(args, options = {}) {
  return runNode(MAIN, args, options);
}

/**
 * Runs `node [nodeArgs] script ...args`, measured the same way as runMenuctl. `wrapper` goes
 * before node (e.g. strace and its options); GNU time, when used, then measures both. `stdout`:
 * 'pipe' (collected into the result) or 'ignore' (for output too big to keep: stdout is then '').
 */
export function runNode(script, args, { env = {}, nodeArgs = [], cwd = ROOT, scratch, wrapper = [], stdout = 'pipe' } = {}) {
  const rssFile = join(scratch, `rss-${process.pid}-${seq++}.txt`);
  const node = [...wrapper, process.execPath, ...nodeArgs];
  const argv = hasGnuTime
    ? [GNU_TIME, '-f', '%M %U %S', '-o', rssFile, ...node, script, ...args]
    : [...node, '--import', join(ROOT, 'bench', 'lib', 'rss-probe.mjs'), script, ...args];
  const childEnv = { ...process.env, NO_COLOR: '1', ...env };
  if (!hasGnuTime) childEnv.MENUCTL_BENCH_RSS_FILE = rssFile;
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, env: childEnv, stdio: ['ignore', stdout, 'pipe'] });
    const out = [];
    const err = [];
    child.stdout?.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      const ms = performance.now() - started;
      done({
        code: code ?? signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms,
        ...readUsage(rssFile),
      });
    });
  });
}

/** { peakKb, cpuMs } from the usage file: "<max RSS KB> <user s> <sys s>". */
function readUsage(file) {
  if (!existsSync(file)) return { peakKb: null, cpuMs: null };
  // GNU time writes "Command exited with non-zero status N" first when the child fails.
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  rmSync(file, { force: true });
  const [kb, user, sys] = lines.at(-1).split(' ').map(Number);
  return { peakKb: Number.isFinite(kb) ? kb : null, cpuMs: Number.isFinite(user + sys) ? (user + sys) * 1000 : null };
}

/** Throws with the child's output unless it exited with `expected` (a bench of an error is worthless). */
export function expectExit(result, expected, what) {
  if (result.code !== expected) {
    const tail = (s) => s.split('\n').slice(-15).join('\n');
    throw new Error(`${what}: exit ${result.code}, expected ${expected}\n--- stdout (tail)\n${tail(result.stdout)}\n--- stderr (tail)\n${tail(result.stderr)}`);
  }
  return result;
}

export const peakRssMethod = hasGnuTime ? '/usr/bin/time -f %M' : 'process.resourceUsage().maxRSS at exit (preload)';
