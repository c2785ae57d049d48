// What a command may touch of the outside world, passed in so commands run in-process in tests.

import { once } from 'node:events';
import { maskedStream, SecretMask } from './secret-mask.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Known-secret values of `env`, masked in stdout and stderr (set by withSecretMask); files a command writes use it too. */
  secrets?: SecretMask;
}

export function processIo(): Io {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', readerGone);
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/**
 * The reader of our output went away (`menuctl plan | head`): the rest of the output has nowhere
 * to go, and the command finishes what it started (an apply keeps its record and lock right) and
 * exits with its own code, quietly, instead of dying in the middle with a stack trace. Any other
 * error of the stream is left to crash as before.
 */
function readerGone(err: NodeJS.ErrnoException): void {
  // After the EPIPE the stream is destroyed, and each later write fails with ERR_STREAM_DESTROYED.
  if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
}

/**
 * The Io every command gets (src/cli/program.ts): stdout and stderr write known secrets of `env`
 * as `***` (./secret-mask.ts). A nested run (the demo) with more secrets in its env masks those too.
 */
export function withSecretMask(io: Io): Io {
  const secrets = SecretMask.fromEnv(io.env);
  if (secrets.empty) return { ...io, secrets };
  return { ...io, secrets, stdout: maskedStream(io.stdout, secrets), stderr: maskedStream(io.stderr, secrets) };
}

/** Colour only on a TTY, never with NO_COLOR set (https://no-color.org) or TERM=dumb. */
export function useColor(io: Io, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.TERM === 'dumb') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  return Boolean(io[stream].isTTY);
}

/**
 * Writes the pieces in writes of ~64 KB (whole lines each, so the secret mask sees whole values),
 * waiting for the stream to drain when it asks to.
 */
export async function writeChunks(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  let batch = '';
  const flush = async () => {
    if (batch === '') return;
    const ok = out.write(batch);
    batch = '';
    // once() rejects on 'error'; a stream closed meanwhile (its reader gone: EPIPE) ends the wait.
    // Whichever wait loses is cancelled: left, each wait kept its listeners on the stream (a
    // MaxListenersExceededWarning after ten waits, when piped).
    if (!ok && !closed(out)) {
      const done = new AbortController();
      await Promise.race([once(out, 'drain', { signal: done.signal }), once(out, 'close', { signal: done.signal })])
        .catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
        })
        .finally(() => done.abort());
    }
  };
  for (const chunk of chunks) {
    if (closed(out)) return;
    batch += chunk;
    if (batch.length >= 65_536) await flush();
  }
  await flush();
}

const closed = (out: NodeJS.WritableStream): boolean => {
  const s = out as { destroyed?: boolean; writableEnded?: boolean };
  return s.destroyed === true || s.writableEnded === true;
};
