// menuctl plan's flags; the handler (cli/plan.ts: config, API client, planner, renderers)
// is imported when the command runs, so `menuctl --help` and `plan --help` load none of it.

import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { filePath, formatOption, recreateOption, resendOption, targetOption, thresholdOptions, envOption } from './options.js';
import { recordOption, stateOption } from './record.js';
import { addConnectionOptions } from './connect.js';
import type { PlanFlags } from './plan.js';

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('plan')
    .description('show what apply would change in the live API (reads only)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .option('--out <file>', 'save the plan as JSON for `menuctl apply --plan FILE`', filePath)
    .addOption(formatOption(['text', 'json', 'markdown']))
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
    .option('--prune', 'also archive live actions and apps that are not in the config')
    .addOption(targetOption())
    .addOption(resendOption())
    .addOption(recreateOption())
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(envOption())
    .option('--force', 'acknowledge archiving beyond the --max-archive thresholds: recorded in the plan, so `apply --plan` carries it out');
  for (const option of thresholdOptions()) cmd.addOption(option);
  addConnectionOptions(cmd);
  cmd.action(async (paths: string[], flags: PlanFlags) => ctx.setExit(await (await import('./plan.js')).runPlan(paths, flags, ctx)));
}
