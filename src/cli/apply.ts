// menuctl apply: plan (or read a saved plan), confirm, carry out, report. The sequence is
// engine/apply-run.ts; this file wires flags, the question, progress, output and exit codes
// (docs/apply.md).

import { resolve } from 'node:path';
import { askYes } from './confirm.js';
import { loadDesired, reportDiagnostics, type Loaded } from './pipeline.js';
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
import { HELD_BACK_CODES } from '../plan/in-flight.js';
import { reportCompletion } from './apply-after.js';
import type { ApplyInput } from '../engine/apply-input.js';
import { applyRun, planToApply, savedPlanToApply, type ApplyRunHooks } from '../engine/apply-run.js';
import { AppsKnown, SavedPlanStale } from '../engine/errors.js';
import { otherEnvironment } from '../engine/saved-plan.js';
import { refusalsAsCliErrors } from './engine-errors.js';
import { warnIfCommittable } from './secrets-tracked.js';
import { knownAppsMessage } from '../report/known-apps.js';
import type { CliContext } from './context.js';
import { runInterrupt, type RunInterrupt } from './interrupt.js';
import { CliError, EXIT } from './exit.js';
import { useColor, writeChunks, type Io } from './io.js';
import { selectEnvironment, type EnvFlags, type SelectedEnvironment } from './environment.js';
import type { ConfigRead } from '../config/load.js';

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
  const { environment, config } = await selectEnvironment(paths, flags, io, saved?.environment !== undefined ? { fallback: saved.environment } : {});
  if (saved) checkPlanEnvironment(saved, environment, flags.plan!);
  const conn = connect(flags, io, environment, { signal: ctx.interrupt.signal });
  // The state's scope is locked from the first read of the record to its last write (store.close).
  const store = await openRecordStore(paths, flags, io).catch(async (err) => {
    await conn.client.close();
    throw err;
  });
  try {
    return await planConfirmApply(paths, flags, { ...conn, store }, ctx, { saved, config });
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

/** What apply starts from: the saved plan (--plan), and what selecting the environment read of the config. */
interface ApplySource {
  saved: Plan | undefined;
  config: ConfigRead;
}

async function planConfirmApply(paths: string[], flags: ApplyFlags, conn: ApplyConnection, ctx: ApplyContext, { saved, config }: ApplySource): Promise<number> {
  const { io } = ctx;
  const planned = saved
    ? await fromSavedPlan(saved, paths, flags, conn, ctx, config)
    : await fromConfig(paths, flags, conn, ctx, config);
  const { plan } = planned;
  const json = flags.format === 'json';
  const secretsFile = flags.secretsFile !== undefined ? resolve(io.cwd, flags.secretsFile) : undefined;
  if (secretsFile !== undefined) await warnIfCommittable(secretsFile, io);
  // A plan with changes is shown before the checks (engine/apply-run.ts) and the question.
  if (!json && plan.changes.length > 0) await writeChunks(io.stdout, planShown(plan, flags, io));
  const run = await refusalsAsCliErrors(applyRun(planned, {
    client: conn.client,
    concurrency: conn.concurrency,
    signal: ctx.signal,
    environment: conn.environment,
    secretsFile,
    discardSecrets: flags.discardSecrets === true,
    force: flags.force === true,
    secrets: io.secrets,
  }, {
    confirm: () => confirmed(plan, flags, ctx),
    carrying: () => progressFor(plan, flags, ctx),
    applied: (result) => io.stdout.write(json ? renderApplyJson(result) : renderApplySummary(result, { color: useColor(io) })),
  }).catch((err: unknown) => {
    if (err instanceof AppsKnown) throw new CliError(knownAppsMessage(err.known, flags.secretsFile!), { code: 'apply.apps-known' });
    throw err;
  }));
  if (run.status === 'declined') return ctx.signal.aborted ? EXIT.INTERRUPTED : EXIT.ERROR;
  if (run.status === 'empty') {
    const completed = reportCompletion(run.completion, secretsFile, io, { json });
    if (completed === null) io.stdout.write(json ? renderApplyJson(emptyResult()) : heldBack(plan).length > 0 ? 'No other changes.\n' : 'No changes. The live API matches the configuration.\n');
    else if (json) io.stdout.write(renderApplyJson(emptyResult()));
    if (reportHeldBack(plan, io)) return EXIT.ERROR;
    return completed !== null && completed.failed.length > 0 ? EXIT.ERROR : EXIT.OK;
  }
  const { result } = run;
  if (result.interrupted) return EXIT.INTERRUPTED;
  if (result.stopped !== undefined) {
    // Another run may be working on this scope now: no secrets completion, no more writes.
    io.stderr.write(`Error[state.lock-lost]: ${inert(result.stopped)}. The changes not yet sent were skipped; what was confirmed before is in the record unless a line above says otherwise. Let the run now holding the lock finish, then plan again.\n`);
    return EXIT.ERROR;
  }
  const completed = reportCompletion(run.completion, secretsFile, io, { json });
  if (reportHeldBack(plan, io)) return EXIT.ERROR;
  return result.summary.failed > 0 || (completed !== null && completed.failed.length > 0) ? EXIT.ERROR : EXIT.OK;
}

/** App creates the plan held back (in flight, unresolvable from the API). */
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
 * made. Written as it is rendered, as `plan` does: a big plan's text need never be one string.
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

async function fromConfig(paths: string[], flags: ApplyFlags, conn: ApplyConnection, ctx: CliContext, config: ConfigRead): Promise<ApplyInput> {
  // The config first: an invalid one is refused without taking (and holding) the state's lock.
  const loaded = await loadDesired(paths, ctx.io, { environment: conn.environment ?? undefined, config });
  const record = await loadRecord(conn.store, { client: conn.client, baseUrl: conn.baseUrl, io: ctx.io, environment: conn.environment, lock: lockFor(flags) });
  const reading = readProgress({ stream: ctx.io.stderr, tty: Boolean(ctx.io.stderr.isTTY) });
  return planReported(loaded, planToApply(loaded.desired, record, {
    onRead: reading.onRead,
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
  }), ctx.io).finally(reading.finish);
}

/** The plan's problems shown with their source lines; throws when any is an error. */
async function planReported(loaded: Loaded, planning: ReturnType<typeof planToApply>, io: Io): Promise<ApplyInput> {
  const { input, diagnostics } = await planning;
  reportDiagnostics(diagnostics, io, { sources: loaded.sources, failure: 'cannot make a plan; nothing was changed' });
  return input;
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
async function fromSavedPlan(plan: Plan, paths: string[], flags: ApplyFlags, conn: ApplyConnection, ctx: CliContext, config: ConfigRead): Promise<ApplyInput> {
  const { io } = ctx;
  const loaded = paths.length > 0 ? await loadDesired(paths, io, { environment: conn.environment ?? undefined, config }) : null;
  if (!loaded) {
    io.stderr.write(
      'Note: no config PATH given, so the plan is checked against the live API only, not against the config ' +
        '(its desired values and `protected:`); give the same PATH as to `menuctl plan` to have it checked.\n',
    );
  }
  await checkOrganization(conn.client, conn.organizationGuard, loaded ? loaded.desired.organization_id : conn.environmentOrganization, conn.environment);
  const record = await loadRecord(conn.store, { client: conn.client, baseUrl: conn.baseUrl, io, environment: conn.environment, lock: lockFor(flags) });
  try {
    return await savedPlanToApply(plan, loaded?.desired ?? null, {
      record, client: conn.client, concurrency: conn.concurrency, recreate: flags.recreate, signal: ctx.signal,
      onWarnings: (warnings) => {
        for (const w of warnings) io.stderr.write(`Warning: ${inert(w.message)}\n`);
      },
    });
  } catch (err) {
    if (!(err instanceof SavedPlanStale)) throw err;
    const why = err.reason === 'unplanned' ? 'it is not what the config plans (edited by hand, or made from another config)' : undefined;
    throw new CliError(verificationMessage(err.stale, flags.plan!, why), { code: 'plan.stale' });
  }
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

/**
 * What the engine tells as it carries the plan out: progress, and the run's interrupt the count
 * of changes in flight.
 */
function progressFor(plan: Plan, flags: ApplyFlags, ctx: ApplyContext): ReturnType<NonNullable<ApplyRunHooks['carrying']>> {
  const { io } = ctx;
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
  return {
    onStart: (c) => { inFlight++; progress?.start(c.address, c.op); },
    onDone: (o) => { if (o.status !== 'skipped') inFlight--; progress?.done(o); },
    finish: () => progress?.finish(),
  };
}

function emptyResult(): ApplyResult {
  return { outcomes: [], interrupted: false, summary: { applied: 0, failed: 0, skipped: 0 } };
}
