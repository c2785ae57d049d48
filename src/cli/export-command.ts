// menuctl export's flags; the handler (cli/export.ts) is imported when the command runs.

import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { envOption, filePath } from './options.js';
import { lockTimeoutOption, recordOption, stateOption } from './record.js';
import { addConnectionOptions } from './connect.js';
import type { ExportFlags } from './export.js';

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('export')
    .description('write the live organization as config YAML (no secrets)')
    .option('--out <file|dir>', 'a .yaml/.yml file, or a directory (one file per action plus apps.yaml); default stdout', filePath)
    .option('--schema <path-or-url>', 'schema reference for the yaml-language-server modeline (default: menuctl\'s bundled schema, relative to the output)')
    .option('--force', 'overwrite files that already exist')
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(lockTimeoutOption())
    .addOption(envOption())
    .option('--config <path>', 'the config whose `environments:` --env picks from (default ./menuctl.yaml, when there is one)');
  addConnectionOptions(cmd);
  cmd.action(async (flags: ExportFlags) => ctx.setExit(await (await import('./export.js')).runExport(flags, ctx)));
}
