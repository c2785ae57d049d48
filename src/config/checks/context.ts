// What every semantic check gets: the merged model, where each object came from, and a sink.

import type { Diagnostic, Severity } from '../../model/diagnostic.js';
import type { SourceLoc, WorldOperator } from '../../model/types.js';
import type { FileModel, Origin } from '../build.js';

export interface CheckContext {
  files: FileModel[];
  origins: Map<object, Origin>;
  catalog: readonly WorldOperator[];
  diagnostics: Diagnostic[];
}

/** Location of `key` of a model object (its value, or the key itself), else the object. */
export function locOf(ctx: CheckContext, model: object, key?: string, opts: { key?: boolean } = {}): SourceLoc | undefined {
  const origin = ctx.origins.get(model);
  if (!origin) return (model as { loc?: SourceLoc }).loc;
  if (key === undefined || !(key in origin.raw)) return origin.tree.locOf(origin.raw);
  return origin.tree.at(origin.raw, key, opts);
}

export function report(ctx: CheckContext, d: { severity?: Severity; code: string; message: string; loc?: SourceLoc; address?: string }): void {
  const diag: Diagnostic = { severity: d.severity ?? 'error', code: d.code, message: d.message };
  if (d.loc) diag.loc = d.loc;
  if (d.address) diag.address = d.address;
  ctx.diagnostics.push(diag);
}

export function where(loc: SourceLoc | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : 'another place';
}
