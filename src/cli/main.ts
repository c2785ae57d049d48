#!/usr/bin/env node
// commander wiring only: each command lives in its own file and exports register().

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './exit.js';
import { processIo, type Io } from './io.js';
import type { CliContext, Register } from './context.js';
// Each command is imported only when it runs: `plan` need not load the server, SQLite or jose.
// Help and unknown commands load them all, so listings and suggestions stay complete.
const COMMANDS: Record<string, () => Promise<{ register: Register }>> = {
  validate: () => import('./validate.js'),
  test: () => import('./test.js'),
  analyze: () => import('./analyze.js'),
  plan: () => import('./plan.js'),
  apply: () => import('./apply.js'),
  drift: () => import('./drift.js'),
  export: () => import('./export.js'),
  operators: () => import('./operators.js'),
  serve: () => import('./serve.js'),
  token: () => import('./token.js'),
  demo: () => import('./demo.js'),
};

async function commandsFor(argv: string[]): Promise<Register[]> {
  const first = argv.find((a) => !a.startsWith('-'));
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  return Promise.all(names.map(async (n) => (await COMMANDS[n]!()).register));
}

export const VERSION = '0.1.0';

/** Runs the CLI in-process; resolves to the exit code. */
export async function run(argv: string[], io: Io, signal: AbortSignal = new AbortController().signal): Promise<number> {
  let exitCode: number = EXIT.OK;
  const ctx: CliContext = { io, signal, setExit: (code) => { exitCode = code; } };
  const program = new Command('menuctl')
    .description('Configuration as code for the Mobile Menu Automation API')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  for (const register of await commandsFor(argv)) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0 through here; usage errors exit 1.
      return err.exitCode === 0 ? EXIT.OK : EXIT.ERROR;
    }
    if (err instanceof CliError) {
      io.stderr.write(`Error: ${err.message}\n`);
      return err.code;
    }
    io.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (io.env.MENUCTL_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT.ERROR;
  }
  return exitCode;
}

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** Commands that stop cleanly on the first signal (finish in-flight writes, report); the rest only read. */
const GRACEFUL = new Set(['apply', 'serve', 'demo']);

if (isMain()) {
  const argv = process.argv.slice(2);
  const command = argv.find((a) => !a.startsWith('-'));
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    // Reading commands have nothing to finish (their files are written atomically): stop now.
    // Graceful ones get the first signal as an abort; a second one exits at once.
    if (!GRACEFUL.has(command ?? '') || controller.signal.aborted) {
      process.stderr.write(`\nInterrupted (${sig}).\n`);
      process.exit(EXIT.INTERRUPTED);
    }
    controller.abort(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  run(argv, processIo(), controller.signal).then(
    (code) => { process.exitCode = code; },
    (err) => { process.stderr.write(`Error: ${String(err)}\n`); process.exitCode = EXIT.ERROR; },
  );
}
