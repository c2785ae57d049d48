// menuctl drift's flags; the handler (cli/drift.ts) is imported when the command runs.

import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { filePath, formatOption, targetOption, envOption } from './options.js';
import { recordOption, stateOption } from './record.js';
import { addConnectionOptions } from './connect.js';
import type { DriftFlags } from './drift.js';

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('drift')
    .description('report live changes made outside the config (exit 2 on drift)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(formatOption(['text', 'json', 'markdown', 'junit']))
    .option('--report-file <file>', 'also write the report, in --format, to this file (stdout then gets the text report)', filePath)
    .addOption(targetOption())
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(envOption());
  addConnectionOptions(cmd);
  cmd.action(async (paths: string[], flags: DriftFlags) => ctx.setExit(await (await import('./drift.js')).runDrift(paths, flags, ctx)));
}
