#!/usr/bin/env node
// The menuctl binary: every command, each imported only when it runs (`plan` need not load the
// server, SQLite or jose). Help and unknown commands load them all, so listings and suggestions
// stay complete; --version loads none.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT } from './exit.js';
import { tightenHeapGrowth } from './heap-growth.js';
import { processIo, type Io } from './io.js';
import { run as runProgram, type CommandTable } from './program.js';

export { VERSION } from './program.js';

export const COMMANDS: CommandTable = {
  validate: () => import('./validate-command.js'),
  test: () => import('./test-command.js'),
  analyze: () => import('./analyze-command.js'),
  sessions: () => import('./sessions-command.js'),
  replay: () => import('./replay-command.js'),
  docs: () => import('./docs-command.js'),
  plan: () => import('./plan-command.js'),
  apply: () => import('./apply-command.js'),
  drift: () => import('./drift-command.js'),
  'diff-env': () => import('./diff-env-command.js'),
  export: () => import('./export-command.js'),
  state: () => import('./state-command.js'),
  import: () => import('./import-command.js'),
  secrets: () => import('./secrets-command.js'),
  operators: () => import('./operators.js'),
  serve: () => import('./serve.js'),
  token: () => import('./token.js'),
  demo: () => import('./demo.js'),
};

/** Runs the CLI in-process; resolves to the exit code. */
export function run(argv: string[], io: Io, signal: AbortSignal = new AbortController().signal): Promise<number> {
  return runProgram(argv, io, signal, COMMANDS);
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
  tightenHeapGrowth(command);
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
