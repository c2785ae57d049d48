// Runs one menuctl command in this process, as the binary would, with its output going to the
// step's log and also kept for the summary.

import { Writable } from 'node:stream';
import { run, type CommandTable } from '../cli/program.js';
import type { Io } from '../cli/io.js';

// Only what the action runs: the bundle then leaves out the server, SQLite and the token minting.
const ACTION_COMMANDS: CommandTable = {
  validate: () => import('../cli/validate-command.js'),
  test: () => import('../cli/test-command.js'),
  plan: () => import('../cli/plan-command.js'),
  apply: () => import('../cli/apply-command.js'),
  drift: () => import('../cli/drift-command.js'),
  secrets: () => import('../cli/secrets-command.js'),  // `secrets pull` after apply: new apps' tokens to a file
  replay: () => import('../cli/replay-command.js'),  // the plan's behaviour section (input `records`)
};

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The stable code of the CliError that ended the run (cli/exit.ts), or null. */
  errorCode: string | null;
}

export async function runMenuctl(argv: string[], o: { env: Io['env']; cwd: string }): Promise<CliRun> {
  const out = tee(process.stdout);
  const err = tee(process.stderr);
  // Not a TTY: plain lines in the log, no progress redraws.
  const io: Io = { stdout: out.stream, stderr: err.stream, stdin: process.stdin, env: o.env, cwd: o.cwd };
  // A cancelled workflow sends SIGINT, then SIGTERM: the first stops apply cleanly (in-flight
  // writes finish, exit 130), as `menuctl apply` does in a terminal; a second one kills.
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => controller.abort(signal);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let errorCode: string | null = null;
  try {
    const code = await run(argv, io, controller.signal, ACTION_COMMANDS, { onError: (c) => { errorCode = c; } });
    return { code, stdout: out.text(), stderr: err.text(), errorCode };
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function tee(target: NodeJS.WritableStream): { stream: Io['stdout']; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const s = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      chunks.push(s);
      // Done at once, not when the log has taken it: text() must hold everything run() wrote.
      target.write(s);
      done();
    },
  });
  return { stream: Object.assign(stream, { isTTY: false, columns: 120 }), text: () => chunks.join('') };
}

/** The one-line reason the CLI gave (`Error: ...`), for an annotation. */
export function errorLine(stderr: string): string | null {
  const line = stderr.split('\n').find((l) => l.startsWith('Error: '));
  return line ? line.slice('Error: '.length) : null;
}
