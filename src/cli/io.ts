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
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
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
    // once() rejects on 'error' (EPIPE when the reader went away); a stream closed meanwhile ends the wait.
    if (!ok && !closed(out)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
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
