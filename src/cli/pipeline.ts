// Config -> live -> plan: the first half of `plan`, `apply` and `drift`.
// Everything here reads; nothing writes. Errors come back as one CliError listing every problem.

import type { ApiClient } from '../api/types.js';
import { startLiveRead, type LiveRead, type ReadLiveOptions } from '../api/read-live.js';
import { CliError } from './exit.js';
import { useColor, type Io } from './io.js';
import { loadConfig } from '../config/load.js';
import { earlyNames, type EarlyNames } from '../config/early-names.js';
import { configDigest } from '../plan/digest.js';
import { hasErrors, warning, type Diagnostic } from '../model/diagnostic.js';
import { diagnosticsSummary, renderDiagnosticsText } from '../report/diagnostics.js';
import type { DesiredState, LiveState } from '../model/types.js';
import type { PlanOptions } from '../plan/build-plan.js';
import { PROTECTED_ARCHIVE } from '../plan/protect.js';
import type { Plan } from '../plan/types.js';
import { wantParsers, type NamedActions } from '../plan/want-parsers.js';
import type { Comparison } from '../plan/compare.js';
import { scopeOf, type LoadedRecord } from '../record/record-file.js';
import { recordedAppIds } from '../record/record.js';

export interface ReadLiveForOptions {
  client: ApiClient;
  concurrency: number;
  signal?: AbortSignal;
  /** Checks the organization guard against the config's organization_id (cli/connect.ts checkOrganization). */
  checkOrganization?: (configOrg: number | undefined) => Promise<unknown>;
  /** The applied-state record: what the API cannot tell (src/record/). */
  record?: LoadedRecord;
}

export type LoadAndPlanOptions = PlanOptions & ReadLiveForOptions & {
  /**
   * `plan`: an archive that `protected:` forbids is shown in the plan (Plan.safety.protected) for
   * the reviewer, rather than stopping before it is rendered; the caller then refuses to save it.
   */
  showProtected?: boolean;
  /** The environment selected with --env (cli/environment.ts); undefined for a config without environments. */
  environment?: string | undefined;
};

export interface Planned {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  /** Which live resource each desired one is (apply completes secrets and the record from it). */
  comparison: Comparison;
  /** Warnings from the config and the planner (errors have been thrown). */
  warnings: Diagnostic[];
}

export interface Loaded {
  desired: DesiredState;
  /** Text of each config file, so problems found later (by the planner) show their line too. */
  sources: ReadonlyMap<string, string>;
}

/** Loads and validates the config; prints every problem with its source line, then throws if any is an error. */
export async function loadDesired(paths: string[], io: Io, environment?: string): Promise<Loaded> {
  const { state, diagnostics, sources } = await loadConfig(paths, { env: io.env, cwd: io.cwd, ...(environment !== undefined ? { environment } : {}) });
  reportDiagnostics(diagnostics, io, {
    sources,
    failure: 'the config is not valid; nothing was read or changed (`menuctl validate` checks it offline)',
  });
  if (state === null) throw new CliError('the config is not valid');
  return { desired: state, sources };
}

/** Writes diagnostics to stderr (errors and warnings alike); throws `failure` when any is an error. */
export function reportDiagnostics(
  diagnostics: readonly Diagnostic[],
  io: Io,
  options: { failure: string; sources?: ReadonlyMap<string, string> | undefined; except?: (d: Diagnostic) => boolean },
): void {
  if (diagnostics.length === 0) return;
  io.stderr.write(renderDiagnosticsText(diagnostics, { sources: options.sources, color: useColor(io, 'stderr') }));
  const except = options.except;
  if (hasErrors(except ? diagnostics.filter((d) => !except(d)) : diagnostics)) {
    throw new CliError(`${options.failure} (${diagnosticsSummary(diagnostics)})`);
  }
}

export async function loadAndPlan(
  paths: string[], options: LoadAndPlanOptions, io: Io, hooks: Pick<ReadHooks, 'reading'> = {},
): Promise<Planned> {
  // The planner's modules load while the answers come in, not before the first request.
  let planner: Promise<typeof import('../plan/build-plan.js')> | undefined;
  const { desired, sources, live } = await loadAndRead(paths, options, io, {
    reading: () => {
      planner ??= import('../plan/build-plan.js');
      hooks.reading?.();
    },
    // The digest needs only the config: worked out while the reads are under way.
    valid: (d) => configDigest(d),
  });
  const { plan, diagnostics, comparison } = (await (planner ??= import('../plan/build-plan.js'))).buildPlan(desired, live, options);
  const shown = (d: Diagnostic) => options.showProtected === true && d.code === PROTECTED_ARCHIVE;
  reportDiagnostics(diagnostics, io, { sources, failure: 'cannot make a plan; nothing was changed', except: shown });
  return { desired, live, plan, comparison, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}

/** Work to do while the live state is being read (loadAndRead). */
export interface ReadHooks {
  /** Once the first request is on its way (or about to be): a time to load what comes after. */
  reading?: () => void;
  /** Once the config is valid, before waiting for the last answers. */
  valid?: (desired: DesiredState) => void;
}

/**
 * The config and the live state it needs, overlapped (issue 17): the reads start as soon as the
 * files are read into values and the organization guard holds, while the schema and the checks
 * run; they finish with the validated config's selection. A config that does not read, or whose
 * guard fails, sends no request; one found invalid later stops the reads it started (a few
 * GETs at most) and is reported exactly as before.
 */
export async function loadAndRead(
  paths: string[], options: ReadLiveForOptions & { environment?: string | undefined }, io: Io, hooks: ReadHooks = {},
): Promise<Loaded & { live: LiveState }> {
  let early: EarlyRead | undefined;
  const { state, diagnostics, sources } = await loadConfig(paths, {
    env: io.env, cwd: io.cwd, ...(options.environment !== undefined ? { environment: options.environment } : {}),
    overlap: {
      parsed: (files, environment) => {
        const names = earlyNames(files, environment);
        if (names === null) return;
        early = new EarlyRead(names, options);
        hooks.reading?.();
        // The rest of the load waits for the lists, so that the first parser reads go out at once
        // rather than after the schema and the checks; then it runs while they are answered.
        return early.underway;
      },
    },
  });
  try {
    reportDiagnostics(diagnostics, io, {
      sources,
      failure: 'the config is not valid; nothing was changed (`menuctl validate` checks it offline)',
    });
    if (state === null) throw new CliError('the config is not valid');
  } catch (err) {
    early?.abandon();
    throw err;
  }
  const reading = early?.finish(state) ?? readLiveFor(state, options);
  // Answers keep arriving while the hooks run; a read that fails meanwhile is reported from `reading`.
  reading.catch(() => undefined);
  if (!early) hooks.reading?.();
  hooks.valid?.(state);
  return { desired: state, sources, live: await reading };
}

/** Reads started from the names a config has before its validation ends (loadAndRead). */
class EarlyRead {
  private read: LiveRead | null = null;
  private abandoned = false;
  private readonly started: Promise<void>;
  /** Settles once the reads are under way, or could not start (the guard refused, a list failed). */
  readonly underway: Promise<void>;

  constructor(private readonly names: EarlyNames, private readonly options: ReadLiveForOptions) {
    this.started = (async () => {
      // The guard first, as when reading after the load: no request for another organization.
      await options.checkOrganization?.(names.organization_id);
      if (!this.abandoned) this.read = startLiveRead(options.client, liveReadOptions(names, names.appIds, options));
    })();
    this.underway = this.started.then(() => this.read?.underway, () => undefined);
  }

  abandon(): void {
    this.abandoned = true;
    this.read?.abandon();
  }

  /** The live state the validated config needs; read after the load when it names another organization. */
  async finish(desired: DesiredState): Promise<LiveState> {
    if (desired.organization_id !== this.names.organization_id) {
      this.abandon();
      return readLiveFor(desired, this.options);
    }
    await this.started;
    const live = await this.read!.finish({ wantParsers: wantParsers(desired), pinnedAppIds: pinnedAppIds(desired) });
    return withRecord(live, desired, this.options);
  }
}

const pinnedAppIds = (desired: DesiredState): string[] => desired.apps.flatMap((a) => (a.id === undefined ? [] : [a.id]));

function liveReadOptions(named: NamedActions, pinned: string[], options: ReadLiveForOptions): ReadLiveOptions {
  return {
    wantParsers: wantParsers(named),
    pinnedAppIds: pinned,
    ...(options.record ? { recordedAppIds: recordedAppIds(scopeOf(options.record)) } : {}),
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** The organization guard first, then the live state `desired` needs with the fewest requests. */
export async function readLiveFor(desired: DesiredState, options: ReadLiveForOptions): Promise<LiveState> {
  await options.checkOrganization?.(desired.organization_id);
  const live = await startLiveRead(options.client, liveReadOptions(desired, pinnedAppIds(desired), options)).finish();
  return withRecord(live, desired, options);
}

/** What the record adds to the live state: which scope was read, and a warning where it cannot help. */
function withRecord(live: LiveState, desired: DesiredState, options: ReadLiveForOptions): LiveState {
  if (!options.record) return live;
  const scope = scopeOf(options.record);
  live.recorded = { file: options.record.shown, scope };
  const unknown = desired.apps.filter((a) => a.id === undefined);
  if (!live.apps_listed && unknown.length > 0 && scope === null) {
    live.warnings.push(warning('live.apps-not-recorded',
      `the API cannot list apps and ${options.record.shown} has no record for this API yet: ${unknown.length} app(s) without \`id:\` ` +
      'are planned as new. If they already exist in this organization, pin them with `id:` first, or they will be created twice.',
    ));
  }
  return live;
}
