// menuctl analyze's flags; the handler (cli/analyze.ts: the config loader and the regex analysis)
// is imported when the command runs, so `menuctl --help` and `analyze --help` load none of it.

import type { Command } from 'commander';
import { formatOption } from './options.js';
import type { CliContext } from './context.js';
import type { AnalyzeOptions } from './analyze.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('analyze')
    .description('prove what the parsers can and cannot classify: overlaps, shadowed and dead parsers (exit 1 on an error)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(formatOption(['text', 'json', 'github']))
    .option('--strict', 'exit 1 on warnings (overlap, shadowed, fixture-overlap) too', false)
    .action(async (paths: string[], options: AnalyzeOptions) => (await import('./analyze.js')).runAnalyze(paths, options, ctx));
}
