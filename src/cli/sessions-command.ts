// menuctl sessions' subcommands and flags; the handler (cli/sessions.ts: the config loader, the
// record reader, YAML) is imported when one runs, so `menuctl --help` loads none of it.

import type { Command } from 'commander';
import { filePath } from './options.js';
import type { CliContext } from './context.js';
import type { ImportOptions } from './sessions.js';

export function register(program: Command, ctx: CliContext): void {
  const sessions = program.command('sessions').description('work with recorded USSD sessions (see docs/sessions.md)');
  sessions
    .command('import')
    .description("turn a transaction record from Hover's webhook (JSON) into a session for `sessions:`, phone numbers and names scrubbed")
    .argument('<file>', 'the webhook body or transaction JSON (- reads stdin)')
    .argument('[path...]', "the config (files or directories): the session's variables come from the values entered at the action's variable and select steps")
    .option('--name <name>', 'name of the session (default: "imported", the date, status and category)')
    .option('--out <file>', 'write the YAML to this file instead of stdout', filePath)
    .action(async (file: string, paths: string[], options: ImportOptions) => (await import('./sessions.js')).runSessionsImport(file, paths, options, ctx));
}
