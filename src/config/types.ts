import type { Diagnostic } from '../model/diagnostic.js';
import type { DesiredState } from '../model/types.js';

export interface LoadOptions {
  /** The process environment (process.env in the CLI); `${VAR}` reads only its MENUCTL_VAR_ variables. */
  env: Record<string, string | undefined>;
  /** Base directory for relative paths; process.cwd() in the CLI. */
  cwd: string;
}

export interface LoadResult {
  /** null when any error prevented building the model. */
  state: DesiredState | null;
  /** Every problem found, errors and warnings, sorted by location. */
  diagnostics: Diagnostic[];
}

// Implemented in ./load.ts:
//   export function loadConfig(paths: string[], options: LoadOptions & LoadExtras & { read?: ConfigRead }): Promise<LoadOutput>
// (LoadOutput adds the source texts, for renderers; LoadExtras takes an operator catalog; `read`
// is what loadEnvironments read for this command.)
// With paths empty it reads ./menuctl.yaml.
