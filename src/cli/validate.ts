// menuctl validate [PATH...]: offline schema, semantic and regex checks; exit 0 valid, 1 invalid.

import { loadConfig, type LoadOutput } from '../config/load.js';
import type { DesiredState } from '../model/types.js';
import {
  countDiagnostics, diagnosticsSummary, renderDiagnosticsJson, renderDiagnosticsText, renderGithubAnnotations,
} from '../report/diagnostics.js';
import { plural } from '../text/plural.js';
import { countDeadParsers } from '../analyze/cheap.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit.js';
import { useColor } from './io.js';

export interface ValidateOptions { format: 'text' | 'json' }

/** "3 files valid: 4 actions, 12 parsers, 2 apps (1 warning)" */
export function validSummary(state: DesiredState, warnings: number): string {
  const parsers = state.actions.reduce((n, a) => n + a.parsers.length, 0);
  const files = state.files.length === 1 ? `${state.files[0]} is valid` : `${state.files.length} files valid`;
  const warn = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
  return `${files}: ${plural(state.actions.length, 'action')}, ${plural(parsers, 'parser')}, ${plural(state.apps.length, 'app')}${warn}`;
}

export function renderValidation(result: LoadOutput, o: { format: 'text' | 'json'; color: boolean; deadParsers?: number }): string {
  const { errors, warnings } = countDiagnostics(result.diagnostics);
  if (o.format === 'json') return renderDiagnosticsJson(result.diagnostics, { files: result.state?.files ?? [...result.sources.keys()] });
  let out = renderDiagnosticsText(result.diagnostics, { sources: result.sources, color: o.color });
  if (result.state && errors === 0) {
    out += `${validSummary(result.state, warnings)}\n`;
    const dead = o.deadParsers ?? 0;
    if (dead > 0) out += `note: ${plural(dead, 'parser')} can never match a message; run \`menuctl analyze\` to see which and why\n`;
  }
  else out += `invalid config: ${diagnosticsSummary(result.diagnostics)}\n`;
  return out;
}

/** `menuctl validate`'s handler; validate-command.ts has its flags. */
export async function runValidate(paths: string[], options: ValidateOptions, ctx: CliContext): Promise<void> {
  const { io } = ctx;
  const result = await loadConfig(paths, { env: io.env, cwd: io.cwd });
  const valid = result.state !== null;
  // One line pointing at `menuctl analyze` when it would find a dead parser (text output only).
  const deadParsers = valid && options.format === 'text' ? await countDeadParsers(result.state!) : 0;
  // Problems go to stderr in text mode so stdout stays the summary; JSON is always stdout.
  // Colour follows the stream written to: `validate 2>log` from a terminal keeps the log plain.
  const stream = options.format === 'json' || valid ? 'stdout' : 'stderr';
  io[stream].write(renderValidation(result, { format: options.format, color: useColor(io, stream), deadParsers }));
  if (io.env.GITHUB_ACTIONS === 'true') io.stdout.write(renderGithubAnnotations(result.diagnostics));
  ctx.setExit(valid ? EXIT.OK : EXIT.ERROR);
}
