// The CLI as a function: commander wiring for a table of commands, loaded on demand, with
// errors turned into exit codes. main.ts runs it with every command; the GitHub Action
// (src/action) with the five it runs, so its bundle leaves the server out.

import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './exit.js';
import { withSecretMask, type Io } from './io.js';
import { inertLines } from '../text/inert.js';
import type { CliContext, Register } from './context.js';
import { addHelpExtras } from './help-extras.js';

/** Command name -> its module, loaded on demand. */
export type CommandTable = Record<string, () => Promise<{ register: Register }>>;

async function commandsFor(argv: string[], commands: CommandTable): Promise<Register[]> {
  const first = argv.find((a) => !a.startsWith('-'));
  // `menuctl --version` needs no command at all: loading them all tripled its start-up time.
  if (first === undefined && argv.some((a) => a === '--version' || a === '-V')) return [];
  const names = first !== undefined && Object.hasOwn(commands, first) ? [first] : Object.keys(commands);
  return Promise.all(names.map(async (n) => (await commands[n]!()).register));
}

export const VERSION = '0.1.0';

export interface RunOptions {
  /**
   * Called with the stable code of the CliError that ended the run (`secrets.no-apps`): the
   * Action tells refusals apart by it, not by the sentence, which may be reworded.
   */
  onError?: (code: string) => void;
}

/**
 * Runs the CLI in-process; resolves to the exit code. `commands` narrows the CLI to some of its
 * commands (the GitHub Action bundles only those it runs).
 */
export async function run(
  argv: string[], unmasked: Io, signal: AbortSignal, commands: CommandTable, options: RunOptions = {},
): Promise<number> {
  // One place for every command's output: known secrets never reach the terminal, a CI log or a file written for a report.
  const io = withSecretMask(unmasked);
  let exitCode: number = EXIT.OK;
  const ctx: CliContext = {
    io, signal, setExit: (code) => { exitCode = code; }, run: (subArgv, subIo) => run(subArgv, subIo, signal, commands),
  };
  const program = new Command('menuctl')
    .description('Configuration as code for the Mobile Menu Automation API')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  for (const register of await commandsFor(argv, commands)) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride();
  addHelpExtras(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0 through here; usage errors exit 1.
      return err.exitCode === 0 ? EXIT.OK : EXIT.ERROR;
    }
    // Messages quote names, paths and the API's words: each line is made inert (text/inert.ts),
    // the message's own line breaks kept (an ApiError's message has the server's made inert already).
    if (err instanceof CliError) {
      options.onError?.(err.code);
      io.stderr.write(`Error: ${inertLines(err.message)}\n`);
      return err.exitCode;
    }
    io.stderr.write(`Error: ${inertLines(err instanceof Error ? err.message : String(err))}\n`);
    if (io.env.MENUCTL_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT.ERROR;
  }
  return exitCode;
}

