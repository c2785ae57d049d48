// The config pipeline: files -> values (${VAR} interpolated, aliases bounded; positions only on
// demand) -> schema -> model -> semantic checks. Every problem is collected; state is null if any is an error.

import { bundledCatalog } from './catalog-file.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../model/diagnostic.js';
import type { DesiredState, WorldOperator } from '../model/types.js';
import type { LoadOptions, LoadResult } from './types.js';
import { ModelBuilder, type FileModel } from './build.js';
import { originOf } from './origin.js';
import { checkActions } from './checks/actions.js';
import type { CheckContext } from './checks/context.js';
import { checkDuplicates } from './checks/duplicates.js';
import { checkFixtures } from './checks/fixtures.js';
import { checkSessions } from './checks/sessions.js';
import { checkParsers } from './checks/parsers.js';
import { readSources, type SourceFile } from './files.js';
import { parseFile } from './parse.js';
import { validateSchema } from './schema.js';

export interface LoadOutput extends LoadResult {
  /** Text of every file read, by displayed name: for renderers that show the source line. */
  sources: ReadonlyMap<string, string>;
}

export interface LoadExtras {
  /** Operator catalog to check references against; the bundled one by default. */
  catalog?: readonly WorldOperator[];
}

/** Loads config already in memory (tests, and callers that have the text). */
export function loadSources(files: SourceFile[], options: LoadOptions & LoadExtras, initial: Diagnostic[] = []): LoadOutput {
  const diagnostics = [...initial];
  const models: FileModel[] = [];
  for (const src of files) {
    const parsed = parseFile(src, options.env, diagnostics);
    if (!parsed.root) continue;
    // No push(...list): spreading 100,000+ items as arguments overflows the stack.
    for (const d of validateSchema(parsed.root, parsed.src)) diagnostics.push(d);
    models.push(new ModelBuilder(parsed.src).file(parsed.root));
  }
  const ctx: CheckContext = { files: models, origins: { get: originOf }, catalog: options.catalog ?? bundledCatalog(), diagnostics };
  checkDuplicates(ctx);
  checkActions(ctx);
  checkParsers(ctx);
  checkFixtures(ctx);
  checkSessions(ctx);
  const sorted = dedupe(sortDiagnostics(diagnostics)).map(shortenAddress);
  const sources = new Map(files.map((f) => [f.file, f.text]));
  return { state: hasErrors(sorted) ? null : merge(models), diagnostics: sorted, sources };
}

export async function loadConfig(paths: string[], options: LoadOptions & LoadExtras): Promise<LoadOutput> {
  const read = await readSources(paths, options.cwd);
  return loadSources(read.files, options, read.diagnostics);
}

/** Longer than any name the API accepts; past this an address only floods the output. */
const MAX_ADDRESS = 600;

/** A 15-million-character name is reported once, by its size, not echoed in every address. */
function shortenAddress(d: Diagnostic): Diagnostic {
  if (d.address === undefined || d.address.length <= MAX_ADDRESS) return d;
  return { ...d, address: `${d.address.slice(0, MAX_ADDRESS)}... (${d.address.length.toLocaleString('en')} characters)` };
}

/** An alias reused in several places can surface the same finding twice at the same spot. */
function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const k = `${d.loc?.file}:${d.loc?.line}:${d.loc?.col}|${d.code}|${d.address}|${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function merge(models: FileModel[]): DesiredState {
  const state: DesiredState = { actions: [], apps: [], files: models.map((m) => m.file) };
  for (const m of models) {
    if (state.organization_id === undefined && m.organization_id !== undefined) state.organization_id = m.organization_id;
    for (const a of m.actions) state.actions.push(a);
    for (const a of m.apps) state.apps.push(a);
  }
  return state;
}
