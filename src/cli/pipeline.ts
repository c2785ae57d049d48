// Config -> live -> plan: the first half of `plan`, `apply` and `drift`.
// Everything here reads; nothing writes. Errors come back as one CliError listing every problem.

import type { ApiClient } from '../api/types.js';
import { readLiveState } from '../api/read-live.js';
import { CliError } from './exit.js';
import type { Io } from './io.js';
import { loadConfig } from '../config/load.js';
import { formatLoc, hasErrors, type Diagnostic } from '../model/diagnostic.js';
import type { DesiredState, LiveState } from '../model/types.js';
import { buildPlan, type PlanOptions } from '../plan/build-plan.js';
import type { Plan } from '../plan/types.js';
import { wantParsers } from '../plan/want-parsers.js';

export interface ReadLiveOptions {
  client: ApiClient;
  concurrency: number;
  signal?: AbortSignal;
  /** Checks the organization guard against the config's organization_id (cli/connect.ts checkOrganization). */
  checkOrganization?: (configOrg: number | undefined) => Promise<unknown>;
}

export type LoadAndPlanOptions = PlanOptions & ReadLiveOptions;

export interface Planned {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  /** Warnings from the config and the planner (errors have been thrown). */
  warnings: Diagnostic[];
}

/** Loads and validates the config; throws a CliError naming every error. Warnings go to stderr. */
export async function loadDesired(paths: string[], io: Io): Promise<DesiredState> {
  const { state, diagnostics } = await loadConfig(paths, { env: io.env, cwd: io.cwd });
  if (state === null || hasErrors(diagnostics)) {
    throw new CliError(`the config is not valid (run \`menuctl validate\` for details):\n${formatDiagnostics(diagnostics)}`);
  }
  writeWarnings(diagnostics, io);
  return state;
}

export async function loadAndPlan(paths: string[], options: LoadAndPlanOptions, io: Io): Promise<Planned> {
  const desired = await loadDesired(paths, io);
  const live = await readLiveFor(desired, options);
  const { plan, diagnostics } = buildPlan(desired, live, options);
  if (hasErrors(diagnostics)) {
    throw new CliError(`cannot make a plan; nothing was changed:\n${formatDiagnostics(diagnostics)}`);
  }
  writeWarnings(diagnostics, io);
  return { desired, live, plan, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}

/** The organization guard first, then the live state `desired` needs with the fewest requests. */
export async function readLiveFor(desired: DesiredState, options: ReadLiveOptions): Promise<LiveState> {
  await options.checkOrganization?.(desired.organization_id);
  return readLiveState(options.client, {
    wantParsers: wantParsers(desired),
    pinnedAppIds: desired.apps.flatMap((a) => (a.id === undefined ? [] : [a.id])),
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Active live resources the plan was made against: the denominator of --max-archive-percent. */
export function managedCount(live: LiveState): number {
  const active = (list: { archived_at: string | null }[]) => list.filter((r) => r.archived_at === null).length;
  return active(live.actions) + active(live.parsers) + active(live.apps);
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const where = formatLoc(d.loc) || d.address || '';
      return `  ${where ? `${where}: ` : ''}${d.message} [${d.code}]`;
    })
    .join('\n');
}

function writeWarnings(diagnostics: readonly Diagnostic[], io: Io): void {
  for (const d of diagnostics) {
    if (d.severity !== 'warning') continue;
    const where = formatLoc(d.loc) || d.address || '';
    io.stderr.write(`Warning: ${where ? `${where}: ` : ''}${d.message}\n`);
  }
}
