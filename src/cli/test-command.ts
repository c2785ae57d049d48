// menuctl test's flags; the handler (cli/test.ts: the config loader, fixtures and sessions,
// renderers) is imported when the command runs, so `menuctl --help` and `test --help` load none of it.

import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_TIMEOUT_MS } from '../classify/run-fixtures.js';
import { formatOption } from './options.js';
import type { CliContext } from './context.js';
import type { TestOptions } from './test.js';

function parseTimeout(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds');
  return n;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .description("run the parser fixtures (tests:) and whole sessions (sessions:) offline with the device's regex semantics (exit 0 all pass, 1 any fails)")
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(formatOption(['text', 'json', 'junit']))
    .option('--strict', 'fail a fixture when several parsers match its message', false)
    .option('--transcript', 'print each session as a dialogue: → sent, ← shown, = outcome', false)
    .option('--transcript-for <name>', 'print the dialogue of the sessions whose name contains NAME only')
    .option('-q, --quiet', 'text format: print only the fixtures and sessions that fail or warn, and the totals', false)
    .option('--require-fixtures', 'fail when a parser has no fixture or session exercising it', false)
    .option('--timeout <ms>', 'time budget per fixture before it is reported as catastrophic backtracking', parseTimeout, DEFAULT_TIMEOUT_MS)
    .action(async (paths: string[], options: TestOptions) => (await import('./test.js')).runTest(paths, options, ctx));
}
