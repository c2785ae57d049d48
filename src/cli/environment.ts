// `--env NAME` / MENUCTL_ENV (CONTRACT.md "Environments"): which of the config's environments
// plan, apply, drift and export act on. Chosen before connecting, because the environment
// decides the API URL, the credentials and the organization guard.

import { loadEnvironments, type ConfigRead } from '../config/load.js';
import type { EnvironmentDef } from '../config/environments.js';
import { didYouMean } from '../text/suggest.js';
import { CliError } from './exit.js';
import type { Io } from './io.js';

export interface EnvFlags {
  env?: string;
}

export interface SelectedEnvironment {
  name: string;
  /** Its definition; undefined only when no config could be read (`apply --plan FILE` without PATH). */
  def: EnvironmentDef | undefined;
}

/** The environment chosen, and what was read to choose it. */
export interface Selection {
  /** null for a config without environments. */
  environment: SelectedEnvironment | null;
  /** For the load that follows (pipeline.ts loadDesired): the texts read and the parses made, taken by that load. */
  config: ConfigRead;
}

const listed = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');

/** The name asked for: --env, else MENUCTL_ENV, else `fallback` (a saved plan's environment). */
export function wantedEnvironment(flags: EnvFlags, io: Io, fallback?: string): string | undefined {
  const fromEnv = io.env.MENUCTL_ENV?.trim();
  return flags.env ?? (fromEnv ? fromEnv : undefined) ?? fallback;
}

/**
 * The environment to act on (null for a config without environments), and the config read to
 * choose it. Refuses, naming the choices, when the config defines environments and none was
 * chosen, or another name was given. `earlier`: another selection's read in this command.
 */
export async function selectEnvironment(
  paths: string[], flags: EnvFlags, io: Io, options: { fallback?: string; requireConfig?: boolean; earlier?: ConfigRead } = {},
): Promise<Selection> {
  const wanted = wantedEnvironment(flags, io, options.fallback);
  const { environments, readable, read } = await loadEnvironments(paths, { env: io.env, cwd: io.cwd, earlier: options.earlier });
  if (!readable && options.requireConfig) throw new CliError(`cannot read the config ${paths.join(' ')}: check the path (\`menuctl validate ${paths.join(' ')}\` says why)`, { code: 'config.unreadable' });
  const selected = (environment: SelectedEnvironment | null): Selection => ({ environment, config: read });
  // An unreadable config is reported by the loader, with its location; only a saved plan goes on without one.
  if (!readable) return selected(wanted !== undefined ? { name: wanted, def: undefined } : null);
  const names = environments.map((e) => e.name);
  if (environments.length === 0) {
    if (wanted === undefined) return selected(null);
    throw new CliError(`--env ${wanted}: the config defines no environments; drop --env (and MENUCTL_ENV), or add a top-level \`environments:\` mapping`, { code: 'env.none-defined' });
  }
  if (wanted === undefined) {
    throw new CliError(`the config defines environments ${listed(names)}: choose one with --env NAME (or MENUCTL_ENV); nothing was read or changed`, { code: 'env.required' });
  }
  const def = environments.find((e) => e.name === wanted);
  if (!def) throw new CliError(`--env ${wanted}: no such environment; the config defines ${listed(names)}.${didYouMean(wanted, names)}`, { code: 'env.unknown' });
  return selected({ name: wanted, def });
}
