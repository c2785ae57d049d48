// menuctl apply: plan (or read a saved plan), confirm, carry out, report. The work is in
// src/apply/; this file wires flags, output and exit codes (docs/apply.md).

import { kindOf } from '../model/kinds/index.js';
import { resolve } from 'node:path';
import { applyPlan, ApplyRefused, archiveRefusal } from '../apply/apply.js';
import { askYes } from './confirm.js';
import { loadDesired, planLoaded } from './pipeline.js';
import type { ApplyResult } from '../apply/types.js';
import { verificationMessage } from '../apply/verify.js';
import { planOfDocument, PlanFileError, planSyntaxError } from '../plan/plan-file.js';
import { readJsonFile } from '../fs/read-json.js';
import { JsonSyntaxError } from '../text/json-pieces.js';
import type { Plan } from '../plan/types.js';
import { renderApplyJson } from '../report/outcomes-json.js';
import { renderApplySummary } from '../report/outcomes-text.js';
import { inert } from '../text/inert.js';
import { planTextChunks, renderSavedPlanBrief } from '../report/plan-text.js';
import { createProgress, readProgress } from './progress.js';
import { checkOrganization, connect, type Connection, type ConnectionFlags } from './connect.js';
import { thresholdsOf } from './options.js';
import { loadRecord, openRecordStore, type RecordFlags } from './record.js';
import type { RecordStore } from '../state/store.js';
import { recordJournal } from '../apply/journal.js';
import { HELD_BACK_CODES } from '../plan/in-flight.js';
import { RecordKeeper } from '../state/record-file.js';
import { afterApply } from './apply-after.js';
import { missingOrFail, usable } from '../engine/after-apply.js';
import { applyInputOf, type ApplyInput } from '../engine/apply-input.js';
import { checkSavedPlanAgainstConfig, otherEnvironment, verifySavedPlan } from '../engine/saved-plan.js';
import { refusalsAsCliErrors } from './engine-errors.js';
import { warnIfCommittable } from './secrets-tracked.js';
import { refuseSecretsInRecord } from './secret-mask.js';
import { canonicalStep } from '../model/canonical.js';
import type { ResolvedAction } from '../model/types.js';
import { secretsSection } from '../apply/secrets-file.js';
import { appsKnownToSecretsFile } from '../engine/known-apps.js';
import { knownAppsMessage } from '../report/known-apps.js';
import type { CliContext } from './context.js';
import { runInterrupt, type RunInterrupt } from './interrupt.js';
import { CliError, EXIT } from './exit.js';
import { useColor, writeChunks, type Io } from './io.js';
import { selectEnvironment, type EnvFlags, type SelectedEnvironment } from './environment.js';

export interface ApplyFlags extends ConnectionFlags, RecordFlags, EnvFlags {
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
  maxArchive?: number;
  maxArchivePercent?: number;
}

const REMAKE = 'make a new one with `menuctl plan --out FILE`';

const lockFor = (flags: ApplyFlags) => ({ command: 'apply', timeoutMs: flags.lockTimeout ?? 0 });

/** The command's context and the run's interrupt (interrupt.ts), which the API client is given. */
type ApplyContext = CliContext & { interrupt: RunInterrupt };

export async function runApply(paths: string[], flags: ApplyFlags, cliCtx: CliContext): Promise<number> {
  const { io } = cliCtx;
  const ctx: ApplyContext = { ...cliCtx, interrupt: runInterrupt(cliCtx) };
  checkFlags(flags);
  const saved = flags.plan !== undefined ? await readPlanFile(resolve(io.cwd, flags.plan), flags.plan) : undefined;
  // A saved plan names its environment: without --env it is the one used, and another is refused.
  const environment = await selectEnvironment(paths, flags, io, saved?.environment !== undefined ? { fallback: saved.environment } : {});
  if (saved) checkPlanEnvironment(saved, environment, flags.plan!);
  const conn = connect(flags, io, environment, { signal: ctx.interrupt.signal });
  // The state's scope is locked from the first read of the record to its last write (store.close).
  const store = await openRecordStore(paths, flags, io).catch(async (err) => {
    await conn.client.close();
    throw err;
  });
  try {
    return await planConfirmApply(paths, flags, { ...conn, store }, ctx, saved);
  } catch (err) {
    // A signal during planning or the question: nothing was written yet.
    if (!ctx.signal.aborted) throw err;
    io.stderr.write('Interrupted before any change was made. Nothing was changed.\n');
    return EXIT.INTERRUPTED;
  } finally {
    try {
      await store.close();
    } finally {
      await conn.client.close();
    }
  }
}

/** The connection and the opened state. */
type ApplyConnection = Connection & { store: RecordStore };

async function planConfirmApply(paths: string[], flags: ApplyFlags, conn: ApplyConnection, ctx: ApplyContext, saved: Plan | undefined): Promise<number> {
  const { io } = ctx;
  const planned = saved
    ? await fromSavedPlan(saved, paths, flags, conn, ctx)
    : await fromConfig(paths, flags, conn, ctx);
  const { plan } = planned;
  const json = flags.format === 'json';
  const secretsFile = flags.secretsFile !== undefined ? resolve(io.cwd, flags.secretsFile) : undefined;
  if (secretsFile !== undefined) await warnIfCommittable(secretsFile, io);
  if (plan.changes.length === 0) {
    const completed = await afterApply(planned, secretsFile, conn, io, { check: true, json });
    if (completed === null) io.stdout.write(json ? renderApplyJson(emptyResult()) : heldBack(plan).length > 0 ? 'No other changes.\n' : 'No changes. The live API matches the configuration.\n');
    else if (json) io.stdout.write(renderApplyJson(emptyResult()));
    if (reportHeldBack(plan, io)) return EXIT.ERROR;
    return completed !== null && completed.failed.length > 0 ? EXIT.ERROR : EXIT.OK;
  }
  if (!json) await writeChunks(io.stdout, planShown(plan, flags, io));
  // Before the question: a plan apply would refuse is not worth confirming.
  const refusal = archiveRefusal(plan, applyOptionsFor(planned, flags));
  if (refusal) throw new CliError(refusal, { code: 'plan.refused' });
  const section = secretsSection(conn.environment);
  const known = await appsKnownToSecretsFile(plan, secretsFile, { client: conn.client, appsListed: planned.appsListed, record: planned.record, ...(section ? { section } : {}) });
  if (known.length > 0) throw new CliError(knownAppsMessage(known, flags.secretsFile!), { code: 'apply.apps-known' });
  refuseSecretsInRecord(plan.changes, recordedSteps, planned.record.shown, io.secrets);
  if (!(await confirmed(plan, flags, ctx))) return ctx.signal.aborted ? EXIT.INTERRUPTED : EXIT.ERROR;
  // Tokens the file lacks are completed after the plan: a file that cannot take them is found now.
  // So is one an app update or restore will need: it is read back afterwards (engine/after-apply.ts).
  const appsReadBack = plan.changes.some((c) => kindOf(c.type).hasSecrets && (c.op === 'update' || c.op === 'restore'));
  if (secretsFile !== undefined && ((await refusalsAsCliErrors(missingOrFail(secretsFile, planned.apps, true, section))).length > 0 || appsReadBack)) await refusalsAsCliErrors(usable(secretsFile));
  const result = await carryOut(planned, flags, conn, ctx);
  io.stdout.write(json ? renderApplyJson(result) : renderApplySummary(result, { color: useColor(io) }));
  if (result.interrupted) return EXIT.INTERRUPTED;
  if (result.stopped !== undefined) {
    // Another run may be working on this scope now: no secrets completion, no more writes.
    io.stderr.write(`Error[state.lock-lost]: ${inert(result.stopped)}. The changes not yet sent were skipped; what was confirmed before is in the record unless a line above says otherwise. Let the run now holding the lock finish, then plan again.\n`);
    return EXIT.ERROR;
  }
  const completed = await afterApply(planned, secretsFile, conn, io, { check: false, json, result });
  if (reportHeldBack(plan, io)) return EXIT.ERROR;
  return result.summary.failed > 0 || (completed !== null && completed.failed.length > 0) ? EXIT.ERROR : EXIT.OK;
}

/** What the record keeps of an action's desired form (its steps as sent), as text; null for other kinds. */
function recordedSteps(desired: unknown): string | null {
  const steps = (desired as Partial<ResolvedAction>).steps;
  return Array.isArray(steps) ? JSON.stringify(steps.map(canonicalStep)) : null;
}

/** App creates the plan held back (in flight, unresolvable from the API): issue 28 item 2. */
const heldBack = (plan: Plan) => plan.warnings.filter((w) => HELD_BACK_CODES.has(w.code));

/**
 * The rest of the plan was carried out; what was held back is still to resolve, so the run is
 * not a success (exit 1): each named with its way out, after everything else.
 */
function reportHeldBack(plan: Plan, io: Io): boolean {
  const held = heldBack(plan);
  if (held.length === 0) return false;
  for (const w of held) io.stderr.write(`Error[${w.code}]: ${w.message}\n`);
  return true;
}

/**
 * The whole plan, unless it is a saved one carried out with --yes: that was reviewed when it was
 * made. Written as it is rendered, as `plan` does: 600,000 creates are ~150 MB of text.
 */
function planShown(plan: Plan, flags: ApplyFlags, io: Io): Iterable<string> {
  const options = { color: useColor(io), width: io.stdout.columns ?? 100 };
  return flags.plan !== undefined && flags.yes ? [renderSavedPlanBrief(plan, flags.plan, options)] : planTextChunks(plan, options);
}

/** A plan made for one environment is never carried out in another (nor one made without environments). */
function checkPlanEnvironment(plan: Plan, environment: SelectedEnvironment | null, file: string): void {
  const other = otherEnvironment(plan, environment?.name ?? null);
  if (other === null) return;
  const { made, now } = other;
  const was = made === null ? 'for a config without environments' : `for environment ${made}`;
  const is = now === null ? 'no environment is selected' : `this is environment ${now}`;
  throw new CliError(`refusing to apply ${file}: the plan was made ${was}, but ${is}. Nothing was changed; make a plan for this environment with \`menuctl plan --env NAME --out FILE\``, { code: 'plan.other-environment' });
}

function checkFlags(flags: ApplyFlags): void {
  if (flags.plan !== undefined) {
    const shaping = [
      flags.prune && '--prune',
      flags.target.length && '--target',
      flags.resend.length && '--resend',
      flags.maxArchive !== undefined && '--max-archive',
      flags.maxArchivePercent !== undefined && '--max-archive-percent',
    ].filter(Boolean);
    if (shaping.length > 0) {
      const one = shaping.length === 1;
      throw new CliError(`${shaping.join(', ')} ${one ? 'shapes' : 'shape'} a plan when it is made: pass ${one ? 'it' : 'them'} to \`menuctl plan --out\`, not with --plan`, { code: 'option.conflict' });
    }
  }
  if (flags.secretsFile !== undefined && flags.discardSecrets) {
    throw new CliError('--secrets-file and --discard-secrets contradict each other: keep one', { code: 'option.conflict' });
  }
}

async function fromConfig(paths: string[], flags: ApplyFlags, conn: ApplyConnection, ctx: CliContext): Promise<ApplyInput> {
  // The config first: an invalid one is refused without taking (and holding) the state's lock.
  const loaded = await loadDesired(paths, ctx.io, conn.environment ?? undefined);
  const record = await loadRecord(conn.store, { client: conn.client, baseUrl: conn.baseUrl, io: ctx.io, environment: conn.environment, lock: lockFor(flags) });
  const reading = readProgress({ stream: ctx.io.stderr, tty: Boolean(ctx.io.stderr.isTTY) });
  const planned = await planLoaded(loaded, {
    onRead: reading.onRead,
    environment: conn.environment ?? undefined,
    record,
    recreate: flags.recreate,
    client: conn.client,
    concurrency: conn.concurrency,
    signal: ctx.signal,
    targets: flags.target,
    prune: flags.prune === true,
    resend: flags.resend,
    thresholds: thresholdsOf(flags),
    force: flags.force === true,
    checkOrganization: (configOrg) => checkOrganization(conn.client, conn.organizationGuard, configOrg, conn.environment),
  }, ctx.io).finally(reading.finish);
  return applyInputOf(planned, record);
}

const READ_PROBLEMS: Record<string, string> = { EISDIR: 'it is a directory', EACCES: 'permission denied', EPERM: 'permission denied' };

/** The saved plan, read in pieces: its text may be longer than a string can hold (src/fs/read-json.ts). */
async function readPlanFile(file: string, shown: string): Promise<Plan> {
  let doc: unknown;
  try {
    doc = await readJsonFile(file);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw planFileError(planSyntaxError(err), file, shown);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`plan file ${file} not found; ${REMAKE}`, { code: 'plan-file.not-found' });
    const why = READ_PROBLEMS[code ?? ''] ?? code ?? (err as Error).message;
    throw new CliError(`cannot read plan file ${file} (${why}); --plan takes the file written by \`menuctl plan --out FILE\``, { code: 'plan-file.unreadable' });
  }
  try {
    return planOfDocument(doc);
  } catch (err) {
    if (!(err instanceof PlanFileError)) throw err;
    throw planFileError(err, file, shown);
  }
}

function planFileError(err: PlanFileError, file: string, shown: string): CliError {
  if (err.problems.length === 1) return new CliError(`plan file ${file}${err.syntax ? ' ' : ': '}${err.problems[0]}; ${REMAKE}. Nothing was changed.`, { code: 'plan-file.invalid' });
  const lines = [`refusing to apply ${shown}: the plan file is not a valid plan. Nothing was changed.`, ...err.problems.map((p) => `  - ${p}`), `Do not edit a saved plan: ${REMAKE}.`];
  return new CliError(lines.join('\n'), { code: 'plan-file.invalid' });
}

/**
 * A saved plan is carried out only when every check passes (docs/apply.md "Saved plans"): the
 * file fits the schema, the organization is the plan's, every touched live resource still has
 * the plan's fingerprint, and, given PATH, the config's digest is the plan's and every change
 * is what the config plans now (protection re-checked).
 */
async function fromSavedPlan(plan: Plan, paths: string[], flags: ApplyFlags, conn: ApplyConnection, ctx: CliContext): Promise<ApplyInput> {
  const { io } = ctx;
  const loaded = paths.length > 0 ? await loadDesired(paths, io, conn.environment ?? undefined) : null;
  if (!loaded) {
    io.stderr.write(
      'Note: no config PATH given, so the plan is checked against the live API only, not against the config ' +
        '(its desired values and `protected:`); give the same PATH as to `menuctl plan` to have it checked.\n',
    );
  }
  await checkOrganization(conn.client, conn.organizationGuard, loaded ? loaded.desired.organization_id : conn.environmentOrganization, conn.environment);
  const record = await loadRecord(conn.store, { client: conn.client, baseUrl: conn.baseUrl, io, environment: conn.environment, lock: lockFor(flags) });
  const engine = { record, client: conn.client, concurrency: conn.concurrency, recreate: flags.recreate };
  const verified = await verifySavedPlan(plan, { ...engine, desired: loaded?.desired ?? null });
  if (!verified.ok) throw new CliError(verificationMessage(verified.stale, flags.plan!), { code: 'plan.stale' });
  for (const w of verified.warnings) io.stderr.write(`Warning: ${inert(w.message)}\n`);
  if (!loaded) return { plan, record, apps: [], appsListed: verified.appsListed };
  const checked = await checkSavedPlanAgainstConfig(plan, loaded.desired, { ...engine, signal: ctx.signal });
  if (!checked.ok) {
    const why = 'it is not what the config plans (edited by hand, or made from another config)';
    throw new CliError(verificationMessage(checked.stale, flags.plan!, why), { code: 'plan.stale' });
  }
  return checked.input;
}

async function confirmed(plan: Plan, flags: ApplyFlags, ctx: CliContext): Promise<boolean> {
  const { io } = ctx;
  if (flags.yes) return true;
  if (!io.stdin.isTTY) {
    throw new CliError('refusing to apply without confirmation: there is no terminal to ask on. Review the plan, then pass --yes. Nothing was changed.', { code: 'apply.not-confirmed' });
  }
  const out = flags.format === 'json' ? io.stderr : io.stdout;
  const n = plan.changes.length;
  const yes = await askYes(io, `\n${n === 1 ? 'Apply this change' : `Apply these ${n} changes`}? Only 'yes' will be accepted: `, out, ctx.signal);
  if (!yes) io.stderr.write('Apply cancelled. Nothing was changed.\n');
  return yes;
}

async function carryOut(planned: ApplyInput, flags: ApplyFlags, conn: Connection, ctx: ApplyContext): Promise<ApplyResult> {
  const { io } = ctx;
  const { plan } = planned;
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
  let inFlight = 0;
  ctx.interrupt.applying(() => inFlight);
  try {
    return await applyPlan(plan, conn.client, {
      concurrency: conn.concurrency,
      signal: ctx.signal,
      onStart: (c) => { inFlight++; progress?.start(c.address, c.op); },
      onDone: (o) => { if (o.status !== 'skipped') inFlight--; progress?.done(o); },
      journal: recordJournal(keeper),
      preflight: () => keeper.check(),
      // Before every write to the API: a run whose state lock was taken away (unlocked, its
      // session ended, the branch reset) stops instead of working beside the new holder.
      guard: () => planned.record.store.verifyLocks(),
      ...(flags.secretsFile !== undefined ? { secretsFile: resolve(io.cwd, flags.secretsFile) } : {}),
      ...(secretsSection(conn.environment) ? { secretsSection: secretsSection(conn.environment)! } : {}),
      discardSecrets: flags.discardSecrets === true,
      ...applyOptionsFor(planned, flags),
    });
  } catch (err) {
    if (err instanceof ApplyRefused) throw new CliError(err.message, { code: 'apply.refused' });
    throw err;
  } finally {
    progress?.finish();
  }
}

/** The threshold inputs: the plan's recorded thresholds, the count checked now, --force. */
function applyOptionsFor(planned: ApplyInput, flags: ApplyFlags): { force: boolean; thresholds?: { managedCount: number } } {
  return {
    force: flags.force === true,
    ...(planned.managed !== undefined ? { thresholds: { managedCount: planned.managed } } : {}),
  };
}

function emptyResult(): ApplyResult {
  return { outcomes: [], interrupted: false, summary: { applied: 0, failed: 0, skipped: 0 } };
}
