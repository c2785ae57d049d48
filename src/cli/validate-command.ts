// menuctl validate's flags; the handler (cli/validate.ts: the config loader, the dead-parser count,
// the renderers) is imported when the command runs, so `menuctl --help` and `validate --help` load
// none of it.

import type { Command } from 'commander';
import { formatOption } from './options.js';
import type { CliContext } from './context.js';
import type { ValidateOptions } from './validate.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check config files offline: schema, semantic checks, regex lint (exit 0 valid, 1 invalid)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(formatOption(['text', 'json']))
    .action(async (paths: string[], options: ValidateOptions) => (await import('./validate.js')).runValidate(paths, options, ctx));
}
