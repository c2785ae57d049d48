// Config -> live -> plan for the commands: the engine (src/engine/) does the work and returns
// diagnostics as data; this file shows them with their source lines and throws one CliError
// listing every problem. Everything here reads; nothing writes.

import { CliError } from './exit.js';
import { useColor, type Io } from './io.js';
import { loadConfig, type ConfigRead } from '../config/load.js';
import { hasErrors, type Diagnostic } from '../model/diagnostic.js';
import { diagnosticsSummary, renderDiagnosticsText } from '../report/diagnostics.js';
import type { DesiredState } from '../model/types.js';
import type { PlanOptions } from '../plan/build-plan.js';
import { PROTECTED_ARCHIVE } from '../plan/protect.js';
import { planDesired, type Planned as EnginePlanned } from '../engine/plan.js';
import type { ReadLiveForOptions } from '../engine/read-live.js';

export type LoadAndPlanOptions = PlanOptions & ReadLiveForOptions & {
  /**
   * `plan`: an archive that `protected:` forbids is shown in the plan (Plan.safety.protected) for
   * the reviewer, rather than stopping before it is rendered; the caller then refuses to save it.
   */
  showProtected?: boolean;
  /** The environment selected with --env (cli/environment.ts); undefined for a config without environments. */
  environment?: string | undefined;
  /** What selecting the environment read, for the load (cli/environment.ts Selection.config). */
  config?: ConfigRead | undefined;
};

export type Planned = Omit<EnginePlanned, 'diagnostics'> & {
  /** Warnings from the config and the planner (errors have been thrown). */
  warnings: Diagnostic[];
};

export interface Loaded {
  desired: DesiredState;
  /** Text of each config file, so problems found later (by the planner) show their line too. */
  sources: ReadonlyMap<string, string>;
}

/**
 * Loads and validates the config; prints every problem with its source line, then throws if any
 * is an error. `from`: the environment selected and what selecting it read (the load takes it).
 */
export async function loadDesired(paths: string[], io: Io, from: { environment?: string | undefined; config?: ConfigRead | undefined } = {}): Promise<Loaded> {
  const { environment, config } = from;
  const { state, diagnostics, sources } = await loadConfig(paths, { env: io.env, cwd: io.cwd, ...(environment !== undefined ? { environment } : {}), read: config });
  reportDiagnostics(diagnostics, io, {
    sources,
    failure: 'the config is not valid; nothing was read or changed (`menuctl validate` checks it offline)',
  });
  if (state === null) throw new CliError('the config is not valid', { code: 'config.invalid' });
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
    throw new CliError(`${options.failure} (${diagnosticsSummary(diagnostics)})`, { code: 'diagnostics.errors' });
  }
}

export async function loadAndPlan(paths: string[], options: LoadAndPlanOptions, io: Io): Promise<Planned> {
  const { config, ...planning } = options;
  return planLoaded(await loadDesired(paths, io, { environment: options.environment, config }), planning, io);
}

/** loadAndPlan's second half: the plan of the loaded config, its diagnostics shown (errors stop it). */
async function planLoaded({ desired, sources }: Loaded, options: LoadAndPlanOptions, io: Io): Promise<Planned> {
  const { diagnostics, ...planned } = await planDesired(desired, options);
  const shown = (d: Diagnostic) => options.showProtected === true && d.code === PROTECTED_ARCHIVE;
  reportDiagnostics(diagnostics, io, { sources, failure: 'cannot make a plan; nothing was changed', except: shown });
  return { ...planned, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}
