// What every semantic check gets: the merged model and a sink. Each model object knows where it
// came from (../origin.ts); a check turns that into a location only for what it reports.

import type { Diagnostic, Severity } from '../../model/diagnostic.js';
import type { SourceLoc, WorldOperator } from '../../model/types.js';
import type { FileModel } from '../build.js';
import { originOf, type Origin } from '../origin.js';
import type { Segment } from '../source.js';

export interface CheckContext {
  files: FileModel[];
  /** Where a model object came from (its values as written in `raw`); the helpers below are shorter. */
  origins: { get(model: object): Origin | undefined };
  catalog: readonly WorldOperator[];
  diagnostics: Diagnostic[];
}

/**
 * Location of `key` of a model object (its value, or the key itself), else the object: a key
 * not written there (a default) locates the object, as ConfigSource.locate falls back to the
 * deepest node on the path.
 */
export function locOf(_ctx: CheckContext, model: object, key?: string, opts: { key?: boolean } = {}): SourceLoc | undefined {
  const origin = originOf(model);
  if (!origin) return (model as { loc?: SourceLoc }).loc;
  return origin.src.locate(key === undefined ? origin.path : [...origin.path, key], opts);
}

/** Location of a path below a model object, e.g. ['expect', 'category']. */
export function locBelow(model: object, below: readonly Segment[], opts: { key?: boolean } = {}): SourceLoc | undefined {
  const origin = originOf(model);
  return origin ? origin.src.locate([...origin.path, ...below], opts) : (model as { loc?: SourceLoc }).loc;
}

/** Location of character `index` of the string under `key` (a regex issue, a ${VAR}). */
export function charLocOf(model: object, key: string, index: number): SourceLoc | undefined {
  const origin = originOf(model);
  return origin ? origin.src.charLoc([...origin.path, key], index) : (model as { loc?: SourceLoc }).loc;
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
