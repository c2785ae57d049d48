// menuctl plan: the diff a reviewer reads. Reads only; --out saves the plan for `apply --plan`.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadAndPlan } from './pipeline.js';
import { renderPlanJson } from '../report/plan-json.js';
import { renderPlanMarkdown } from '../report/plan-markdown.js';
import { renderPlanText } from '../report/plan-text.js';
import type { Plan } from '../plan/types.js';
import { addConnectionOptions, checkOrganization, connect, type ConnectionFlags } from './connect.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit.js';
import { useColor, type Io } from './io.js';
import { formatOption, recreateOption, resendOption, targetOption } from './options.js';
import { loadRecord, recordOption, recordPath, type RecordFlags } from './record.js';
import { writeFileAtomic } from '../fs/atomic-write.js';

interface PlanFlags extends ConnectionFlags, RecordFlags {
  out?: string;
  format: 'text' | 'json' | 'markdown';
  detailedExitcode?: boolean;
  prune?: boolean;
  target: string[];
  resend: string[];
  recreate: string[];
}

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('plan')
    .description('show what apply would change in the live API (reads only)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .option('--out <file>', 'save the plan as JSON for `menuctl apply --plan FILE`')
    .addOption(formatOption(['text', 'json', 'markdown']))
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
    .option('--prune', 'also archive live actions and apps that are not in the config')
    .addOption(targetOption())
    .addOption(resendOption())
    .addOption(recreateOption())
    .addOption(recordOption());
  addConnectionOptions(cmd);
  cmd.action(async (paths: string[], flags: PlanFlags) => ctx.setExit(await runPlan(paths, flags, ctx)));
}

export async function runPlan(paths: string[], flags: PlanFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const { client, organizationGuard, concurrency, baseUrl } = connect(flags, io);
  try {
    const record = await loadRecord(recordPath(paths, flags, io), { client, baseUrl, io });
    const { plan } = await loadAndPlan(paths, {
      record,
      recreate: flags.recreate,
      client,
      concurrency,
      signal: ctx.signal,
      targets: flags.target,
      prune: Boolean(flags.prune),
      resend: flags.resend,
      checkOrganization: (configOrg) => checkOrganization(client, organizationGuard, configOrg),
    }, io);
    if (flags.out) await writeFileAtomic(resolve(io.cwd, flags.out), renderPlanJson(plan));
    io.stdout.write(renderPlan(plan, flags.format, io));
    if (flags.out && flags.format === 'text') io.stdout.write(`\nSaved the plan to ${flags.out}: run \`menuctl apply --plan ${flags.out}\` to carry it out.\n`);
    return flags.detailedExitcode && plan.changes.length > 0 ? EXIT.CHANGES : EXIT.OK;
  } finally {
    await client.close();
  }
}

function renderPlan(plan: Plan, format: PlanFlags['format'], io: Io): string {
  switch (format) {
    case 'json': return renderPlanJson(plan);
    case 'markdown': return renderPlanMarkdown(plan);
    case 'text': return renderPlanText(plan, { color: useColor(io), width: io.stdout.columns ?? 100 });
  }
}
