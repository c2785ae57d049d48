// menuctl apply: plan (or read a saved plan), confirm, carry out, report. The work is in
// src/apply/; this file wires flags, output and exit codes (docs/apply.md).

import { resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { applyPlan, ApplyRefused } from '../apply/apply.js';
import { askYes } from './confirm.js';
import { loadAndPlan, loadDesired } from './pipeline.js';
import { readPlanFile } from '../apply/plan-file.js';
import { countManaged, DEFAULT_THRESHOLDS } from '../apply/safety.js';
import type { ApplyResult } from '../apply/types.js';
import { verificationMessage, verifyPlan } from '../apply/verify.js';
import { configDigest } from '../plan/digest.js';
import type { Plan } from '../plan/types.js';
import { renderApplyJson } from '../report/outcomes-json.js';
import { renderApplySummary } from '../report/outcomes-text.js';
import { renderPlanText } from '../report/plan-text.js';
import { createProgress } from './progress.js';
import { addConnectionOptions, checkOrganization, connect, type Connection, type ConnectionFlags } from './connect.js';
import { formatOption, recreateOption, resendOption, targetOption } from './options.js';
import { loadRecord, recordOption, recordPath, type RecordFlags } from './record.js';
import { recordJournal } from '../record/journal.js';
import { RecordKeeper, type LoadedRecord } from '../record/record-file.js';
import type { ManagedApp } from '../apply/complete-secrets.js';
import { afterApply, managedApps, missingOrFail, usable } from './apply-after.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { useColor, type Io } from './io.js';

interface Planned {
  plan: Plan;
  managed: number;
  /** Why `managed` may be below what a fresh plan would count (see docs/apply.md). */
  managedNote?: string;
  record: LoadedRecord;
  /** Apps of the config matched to live ones (a saved plan knows none): their secrets and ids. */
  apps: ManagedApp[];
}

export interface ApplyFlags extends ConnectionFlags, RecordFlags {
  plan?: string;
  yes?: boolean;
  prune?: boolean;
  force?: boolean;
  target: string[];
  resend: string[];
  recreate: string[];
  secretsFile?: string;
  discardSecrets?: boolean;
  format: 'text' | 'json';
  maxArchive: number;
  maxArchivePercent: number;
}


function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number, 0 or more.');
  return n;
}

function percent(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('must be a number from 0 to 100.');
  return n;
}

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('apply')
    .description('plan, then carry it out (or carry out a saved plan with --plan FILE)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .option('--plan <file>', 'carry out a plan saved with `menuctl plan --out FILE` (refused if stale)')
    .option('--yes', 'do not ask for confirmation (required without a terminal)')
    .option('--prune', 'archive live actions and apps that are not in the config')
    .option('--force', 'allow archiving more than the --max-archive thresholds')
    .addOption(targetOption())
    .addOption(resendOption())
    .addOption(recreateOption())
    .addOption(recordOption())
    .option('--secrets-file <file>', 'where created apps\' token and webhook secret are written (JSON, mode 0600)')
    .option('--discard-secrets', 'create apps without keeping their token and webhook secret')
    .addOption(formatOption(['text', 'json']))
    .addOption(new Option('--max-archive <n>', 'archives allowed without --force (when also over --max-archive-percent)')
      .argParser(nonNegativeInt).default(DEFAULT_THRESHOLDS.maxArchive))
    .addOption(new Option('--max-archive-percent <p>', 'share of managed resources archived without --force')
      .argParser(percent).default(DEFAULT_THRESHOLDS.maxArchivePercent));
  addConnectionOptions(cmd).action(async (paths: string[], flags: ApplyFlags) => {
    ctx.setExit(await runApply(paths, flags, ctx));
  });
}

export async function runApply(paths: string[], flags: ApplyFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  checkFlags(flags);
  const conn = connect(flags, io);
  try {
    return await planConfirmApply(paths, flags, conn, ctx);
  } catch (err) {
    // A signal during planning or the question: nothing was written yet.
    if (!ctx.signal.aborted) throw err;
    io.stderr.write('Interrupted before any change was made. Nothing was changed.\n');
    return EXIT.INTERRUPTED;
  } finally {
    await conn.client.close();
  }
}

async function planConfirmApply(paths: string[], flags: ApplyFlags, conn: Connection, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const planned = flags.plan
    ? await fromSavedPlan(paths, flags, conn, io)
    : await fromConfig(paths, flags, conn, ctx);
  const { plan } = planned;
  const json = flags.format === 'json';
  const secretsFile = flags.secretsFile !== undefined ? resolve(io.cwd, flags.secretsFile) : undefined;
  if (plan.changes.length === 0) {
    const completed = await afterApply(planned, secretsFile, conn, io, { check: true });
    if (completed === null) io.stdout.write(json ? renderApplyJson(emptyResult()) : 'No changes. The live API matches the configuration.\n');
    else if (json) io.stdout.write(renderApplyJson(emptyResult()));
    return completed !== null && completed.failed.length > 0 ? EXIT.ERROR : EXIT.OK;
  }
  if (!json) io.stdout.write(renderPlanText(plan, { color: useColor(io), width: io.stdout.columns ?? 100 }));
  if (!(await confirmed(plan, flags, ctx))) return ctx.signal.aborted ? EXIT.INTERRUPTED : EXIT.ERROR;
  // Tokens the file lacks are completed after the plan: a file that cannot take them is found now.
  if (secretsFile !== undefined && (await missingOrFail(secretsFile, planned.apps, true)).length > 0) await usable(secretsFile);
  const result = await carryOut(planned, flags, conn, ctx);
  io.stdout.write(json ? renderApplyJson(result) : renderApplySummary(result, { color: useColor(io) }));
  if (result.interrupted) return EXIT.INTERRUPTED;
  const completed = await afterApply(planned, secretsFile, conn, io, { check: false });
  return result.summary.failed > 0 || (completed !== null && completed.failed.length > 0) ? EXIT.ERROR : EXIT.OK;
}

function checkFlags(flags: ApplyFlags): void {
  if (flags.plan !== undefined) {
    const shaping = [flags.prune && '--prune', flags.target.length && '--target', flags.resend.length && '--resend'].filter(Boolean);
    if (shaping.length > 0) {
      const one = shaping.length === 1;
      throw new CliError(`${shaping.join(', ')} ${one ? 'shapes' : 'shape'} a plan when it is made: pass ${one ? 'it' : 'them'} to \`menuctl plan --out\`, not with --plan`);
    }
  }
  if (flags.secretsFile !== undefined && flags.discardSecrets) {
    throw new CliError('--secrets-file and --discard-secrets contradict each other: keep one');
  }
}

async function fromConfig(paths: string[], flags: ApplyFlags, conn: Connection, ctx: CliContext): Promise<Planned> {
  const record = await loadRecord(recordPath(paths, flags, ctx.io), { client: conn.client, baseUrl: conn.baseUrl, io: ctx.io });
  const planned = await loadAndPlan(paths, {
    record,
    recreate: flags.recreate,
    client: conn.client,
    concurrency: conn.concurrency,
    signal: ctx.signal,
    targets: flags.target,
    prune: flags.prune === true,
    resend: flags.resend,
    checkOrganization: (configOrg) => checkOrganization(conn.client, conn.organizationGuard, configOrg),
  }, ctx.io);
  return { plan: planned.plan, managed: countManaged(planned.live), record, apps: managedApps(planned.comparison) };
}

async function fromSavedPlan(paths: string[], flags: ApplyFlags, conn: Connection, io: Io): Promise<Planned> {
  const file = resolve(io.cwd, flags.plan!);
  let plan: Plan;
  try {
    plan = await readPlanFile(file);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  let digest: string | undefined;
  let configOrg: number | undefined;
  if (paths.length > 0) {
    const { desired } = await loadDesired(paths, io);
    digest = configDigest(desired);
    configOrg = desired.organization_id;
  } else {
    io.stderr.write('Note: no config PATH given, so the plan is not checked against the config (only against the live API).\n');
  }
  const actual = await checkOrganization(conn.client, conn.organizationGuard, configOrg);
  // Before any read by id: another organization's resources would only look missing (404).
  // verifyPlan checks this again for library callers; from here it is never reached.
  if (plan.organization_id !== null && actual !== null && actual !== plan.organization_id) {
    throw new CliError(`the plan was made for organization ${plan.organization_id}, but the credentials act for organization ${actual}: nothing was done`);
  }
  const record = await loadRecord(recordPath(paths, flags, io), { client: conn.client, baseUrl: conn.baseUrl, io });
  const verification = await verifyPlan(plan, conn.client, {
    ...(digest !== undefined ? { configDigest: digest } : {}),
    concurrency: conn.concurrency,
  });
  if (!verification.ok) throw new CliError(verificationMessage(verification, flags.plan!));
  for (const w of verification.warnings) io.stderr.write(`Warning: ${w}\n`);
  if (!verification.uncountedParsers) return { plan, managed: verification.managedCount, record, apps: [] };
  return {
    plan,
    record,
    apps: [],
    managed: verification.managedCount,
    managedNote: 'With --plan only the parsers of actions the plan touches are counted as managed, so the count can be lower than a fresh plan\'s',
  };
}

async function confirmed(plan: Plan, flags: ApplyFlags, ctx: CliContext): Promise<boolean> {
  const { io } = ctx;
  if (flags.yes) return true;
  if (!io.stdin.isTTY) {
    throw new CliError('refusing to apply without confirmation: there is no terminal to ask on. Review the plan, then pass --yes. Nothing was changed.');
  }
  const out = flags.format === 'json' ? io.stderr : io.stdout;
  const n = plan.changes.length;
  const yes = await askYes(io, `\nApply these ${n} change${n === 1 ? '' : 's'}? Only 'yes' will be accepted: `, out, ctx.signal);
  if (!yes) io.stderr.write('Apply cancelled. Nothing was changed.\n');
  return yes;
}

async function carryOut(planned: Planned, flags: ApplyFlags, conn: Connection, ctx: CliContext): Promise<ApplyResult> {
  const { io } = ctx;
  const { plan, managed, managedNote } = planned;
  const keeper = new RecordKeeper(planned.record);
  const json = flags.format === 'json';
  // JSON mode keeps stdout to the one document; progress then goes to a terminal's stderr only.
  const stream = json ? io.stderr : io.stdout;
  const progress = json && !io.stderr.isTTY ? null : createProgress({
    stream,
    tty: Boolean(stream.isTTY),
    color: useColor(io, json ? 'stderr' : 'stdout'),
    total: plan.changes.length,
    label: 'applying',
  });
  try {
    return await applyPlan(plan, conn.client, {
      concurrency: conn.concurrency,
      signal: ctx.signal,
      onStart: (c) => progress?.start(c.address, c.op),
      onDone: (o) => progress?.done(o),
      journal: recordJournal(keeper),
      preflight: () => keeper.check(),
      ...(flags.secretsFile !== undefined ? { secretsFile: resolve(io.cwd, flags.secretsFile) } : {}),
      discardSecrets: flags.discardSecrets === true,
      force: flags.force === true,
      thresholds: {
        maxArchive: flags.maxArchive,
        maxArchivePercent: flags.maxArchivePercent,
        managedCount: managed,
        ...(managedNote !== undefined ? { managedNote } : {}),
      },
    });
  } catch (err) {
    if (err instanceof ApplyRefused) throw new CliError(err.message);
    throw err;
  } finally {
    progress?.finish();
  }
}

function emptyResult(): ApplyResult {
  return { outcomes: [], interrupted: false, summary: { applied: 0, failed: 0, skipped: 0 } };
}
