// menuctl apply's flags; the handler (cli/apply.ts) is imported when the command runs.

import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { filePath, formatOption, recreateOption, resendOption, targetOption, thresholdOptions, envOption } from './options.js';
import { lockTimeoutOption, recordOption, stateOption } from './record.js';
import { addConnectionOptions } from './connect.js';
import type { ApplyFlags } from './apply.js';

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('apply')
    .description('plan, then carry it out (or carry out a saved plan with --plan FILE)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .option('--plan <file>', 'carry out a plan saved with `menuctl plan --out FILE` (refused if stale)', filePath)
    .option('--yes', 'do not ask for confirmation (required without a terminal)')
    .option('--prune', 'archive live actions and apps that are not in the config')
    .option('--force', 'allow archiving more than the --max-archive thresholds (a saved plan made with `plan --force` carries this)')
    .addOption(targetOption())
    .addOption(resendOption())
    .addOption(recreateOption())
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(lockTimeoutOption())
    .addOption(envOption())
    .option('--secrets-file <file>', 'where created apps\' token and webhook secret are written (JSON, mode 0600)', filePath)
    .option('--discard-secrets', 'create apps without keeping their token and webhook secret')
    .addOption(formatOption(['text', 'json']));
  for (const option of thresholdOptions()) cmd.addOption(option);
  addConnectionOptions(cmd).action(async (paths: string[], flags: ApplyFlags) => {
    ctx.setExit(await (await import('./apply.js')).runApply(paths, flags, ctx));
  });
}
