// menuctl plan: the diff a reviewer reads. Reads only; --out saves the plan for `apply --plan`.

import { resolve } from 'node:path';
import { readProgress } from './progress.js';
import { loadAndPlan } from './pipeline.js';
import { planJsonChunks } from '../plan/plan-file.js';
import { renderPlanMarkdown } from '../report/plan-markdown.js';
import { planTextChunks } from '../report/plan-text.js';
import type { Plan } from '../plan/types.js';
import type { DesiredAction } from '../model/types.js';
import { checkOrganization, connect, type ConnectionFlags } from './connect.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { plural } from '../text/plural.js';
import { useColor, writeChunks, type Io } from './io.js';
import { thresholdsOf } from './options.js';
import { readRecord, type RecordFlags } from './record.js';
import { writeUserFile } from './write-file.js';
import { refusingSecretsInPlan } from './secret-mask.js';
import { selectEnvironment, type EnvFlags } from './environment.js';

export interface PlanFlags extends ConnectionFlags, RecordFlags, EnvFlags {
  out?: string;
  format: 'text' | 'json' | 'markdown';
  detailedExitcode?: boolean;
  prune?: boolean;
  target: string[];
  resend: string[];
  force?: boolean;
  maxArchive?: number;
  maxArchivePercent?: number;
  recreate: string[];
}

export async function runPlan(paths: string[], flags: PlanFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const { environment, config } = await selectEnvironment(paths, flags, io);
  const { client, organizationGuard, concurrency, baseUrl } = connect(flags, io, environment);
  try {
    const record = await readRecord(paths, flags, { client, baseUrl, io, environment: environment?.name ?? null });
    const reading = readProgress({ stream: io.stderr, tty: Boolean(io.stderr.isTTY) });
    const { plan, desired } = await loadAndPlan(paths, {
      onRead: reading.onRead,
      environment: environment?.name,
      config,
      showProtected: true,
      record,
      recreate: flags.recreate,
      client,
      concurrency,
      signal: ctx.signal,
      targets: flags.target,
      prune: Boolean(flags.prune),
      resend: flags.resend,
      thresholds: thresholdsOf(flags),
      force: flags.force === true,
      checkOrganization: (configOrg) => checkOrganization(client, organizationGuard, configOrg, environment?.name ?? null),
    }, io).finally(reading.finish);
    const guarded = plan.safety?.protected.length ?? 0;
    // Both written as rendered, never one string: a big plan's JSON is longer than a string can be.
    if (flags.out && guarded === 0) {
      await writeUserFile('--out', resolve(io.cwd, flags.out), refusingSecretsInPlan('--out', flags.out, () => planJsonChunks(plan), io.secrets));
    }
    await writeChunks(io.stdout, renderPlan(plan, flags.format, io, desired.actions));
    if (guarded > 0) {
      throw new CliError(`apply would refuse this plan: it archives ${plural(guarded, 'protected resource')} (listed above)${flags.out ? `; ${flags.out} was not written` : ''}`, { code: 'plan.refused' });
    }
    // An empty plan is saved too (a CI job can apply it unconditionally), but nothing tells a person to.
    if (flags.out && flags.format === 'text') io.stdout.write(plan.changes.length === 0
      ? `\nSaved the plan to ${flags.out}: it changes nothing, so there is nothing to apply.\n`
      : `\nSaved the plan to ${flags.out}: run \`${applyCommand(paths, flags, environment?.name)}\` to carry it out.\n`);
    return flags.detailedExitcode && plan.changes.length > 0 ? EXIT.CHANGES : EXIT.OK;
  } finally {
    await client.close();
  }
}

/** The plan as `format` shows it, in pieces of whole lines. */
function renderPlan(plan: Plan, format: PlanFlags['format'], io: Io, actions: readonly DesiredAction[]): Iterable<string> {
  switch (format) {
    case 'text': return planTextChunks(plan, { color: useColor(io), width: io.stdout.columns ?? 100 });
    case 'json': return planJsonChunks(plan);
    case 'markdown': return [renderPlanMarkdown(plan, { actions })];
  }
}

/**
 * The exact command that carries out a saved plan: the config PATHs as given (without them apply
 * cannot re-check the config and warns), and the environment and record this plan was made with.
 */
export function applyCommand(paths: readonly string[], flags: Pick<PlanFlags, 'out' | 'record' | 'state'>, environment?: string): string {
  const args = ['menuctl', 'apply', ...paths, '--plan', flags.out!];
  if (environment) args.push('--env', environment);
  if (flags.state) args.push('--state', flags.state);
  else if (flags.record) args.push('--record', flags.record);
  return args.map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: quoted only when it needs to be. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
