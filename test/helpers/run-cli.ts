// Runs the CLI in-process with captured output: fast, and the same code path as the binary.
import { PassThrough, Readable } from 'node:stream';
import { run } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  tty?: boolean;
  /** Per stream, over `tty`: e.g. a terminal on stdout with stderr redirected to a file. */
  ttys?: { stdout?: boolean; stderr?: boolean; stdin?: boolean };
  stdin?: string;
  signal?: AbortSignal;
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  stderr.on('data', (c: Buffer) => err.push(c.toString('utf8')));
  const stdin = Readable.from(options.stdin !== undefined ? [options.stdin] : []);
  const io: Io = {
    stdout: Object.assign(stdout, { isTTY: options.ttys?.stdout ?? options.tty ?? false, columns: 100 }),
    stderr: Object.assign(stderr, { isTTY: options.ttys?.stderr ?? options.tty ?? false }),
    stdin: Object.assign(stdin, { isTTY: options.ttys?.stdin ?? options.tty ?? false }),
    // Tests never inherit the developer's credentials or colours.
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await run(argv, io, options.signal);
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out.join(''), stderr: err.join('') };
}
