// The config pipeline: files -> values (${VAR} interpolated, aliases bounded; positions only on
// demand) -> schema -> model -> semantic checks. Every problem is collected; state is null if any is an error.

import { bundledCatalog } from '../fs/catalog-file.js';
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
import type { ConfigSource } from './source.js';
import { didYouMean } from '../text/suggest.js';
import { VariableScope } from './interpolate.js';
import {
  checkEnvironmentLists, forEnvironment, mayDefineEnvironments, mergeAcrossEnvironments, readEnvironments, scopeFor, unguarded, type EnvironmentDef,
} from './environments.js';

export interface LoadOutput extends LoadResult {
  /** Text of every file read, by displayed name: for renderers that show the source line. */
  sources: ReadonlyMap<string, string>;
  /** The config's environments (empty when it defines none). */
  environments: EnvironmentDef[];
  /**
   * With environments and none selected: each environment's desired state (null where it has
   * errors). `state` is then the first environment's.
   */
  perEnvironment?: { name: string; state: DesiredState | null }[];
}

export interface LoadExtras {
  /** Operator catalog to check references against; the bundled one by default. */
  catalog?: readonly WorldOperator[];
  /**
   * The environment to load (`--env`): its variables before the MENUCTL_VAR_ variables of
   * options.env, only its resources.
   * Unset with environments defined: every environment is checked (validate, test).
   */
  environment?: string;
}

interface Pass {
  diagnostics: Diagnostic[];
  state: DesiredState | null;
}

/** Loads config already in memory (tests, and callers that have the text). */
export function loadSources(files: SourceFile[], options: LoadOptions & LoadExtras, initial: Diagnostic[] = []): LoadOutput {
  const sources = new Map(files.map((f) => [f.file, f.text]));
  const { environments, diagnostics: definitions } = findEnvironments(files, options.env);
  const names = environments.map((e) => e.name);
  const finish = (diagnostics: Diagnostic[], state: DesiredState | null, extra: Partial<LoadOutput> = {}): LoadOutput => {
    const sorted = dedupe(sortDiagnostics([...initial, ...definitions, ...diagnostics])).map(shortenAddress);
    return { state: hasErrors(sorted) ? null : state, diagnostics: sorted, sources, environments, ...extra };
  };
  if (environments.length === 0) {
    const pass = loadPass(files, options, names);
    if (options.environment !== undefined) pass.diagnostics.push(noSuchEnvironment(options.environment, names));
    return finish(pass.diagnostics, pass.state);
  }
  if (options.environment !== undefined) {
    const def = environments.find((e) => e.name === options.environment);
    if (!def) return finish([noSuchEnvironment(options.environment, names)], null);
    const pass = loadPass(files, options, names, def);
    return finish(pass.diagnostics.map((d) => (d.code === 'env.unset' || d.code === 'env.undeclared' ? forEnvironment(d, def.name) : d)), pass.state);
  }
  const passes = environments.map((def) => ({ def, ...loadPass(files, options, names, def) }));
  const perEnvironment = passes.map((p) => ({ name: p.def.name, state: hasErrors(p.diagnostics) ? null : p.state }));
  return finish(acrossEnvironments(passes), passes[0]!.state, { perEnvironment });
}

/** One read of the whole config, for one environment or for a config without environments. */
function loadPass(files: SourceFile[], options: LoadOptions & LoadExtras, names: readonly string[], def?: EnvironmentDef): Pass {
  const diagnostics: Diagnostic[] = [];
  const models: FileModel[] = [];
  const parsedFiles: { src: ConfigSource; root: Record<string, unknown> | null }[] = [];
  const scope = scopeFor(options.env, def);
  for (const src of files) {
    const parsed = parseFile(src, scope, diagnostics);
    parsedFiles.push(parsed);
    if (!parsed.root) continue;
    // No push(...list): spreading 100,000+ items as arguments overflows the stack.
    for (const d of validateSchema(parsed.root, parsed.src)) diagnostics.push(d);
    const builder = new ModelBuilder(parsed.src, def?.name);
    models.push(builder.file(parsed.root));
  }
  checkEnvironmentLists(parsedFiles, names, diagnostics);
  const ctx: CheckContext = { files: models, origins: { get: originOf }, catalog: options.catalog ?? bundledCatalog(), diagnostics };
  checkDuplicates(ctx);
  checkActions(ctx);
  checkParsers(ctx);
  checkFixtures(ctx);
  checkSessions(ctx);
  if (def && def.organization_id === undefined && !models.some((m) => m.organization_id !== undefined)) diagnostics.push(unguarded(def));
  // The values as written were for the checks: the model is what the commands use. Kept, they
  // doubled the memory of a big config for the whole run.
  for (const p of parsedFiles) p.src.root = null;
  return { diagnostics, state: hasErrors(diagnostics) ? null : merge(models, def) };
}

/**
 * The definitions, read from the files that can hold them with the process environment (their
 * other findings are reported by the passes that follow). A config without environments pays
 * only a substring search.
 */
function findEnvironments(files: SourceFile[], env: LoadOptions['env']): { environments: EnvironmentDef[]; diagnostics: Diagnostic[] } {
  const candidates = files.filter((f) => mayDefineEnvironments(f.text));
  if (candidates.length === 0) return { environments: [], diagnostics: [] };
  // The CLI finds them before connecting (--env picks the URL), then loads: the same texts are not parsed twice.
  if (lastFound && lastFound.env === env && sameFiles(lastFound.files, candidates)) return lastFound.found;
  const found = readDefinitions(candidates, env);
  lastFound = { files: candidates, env, found };
  return found;
}

let lastFound: { files: SourceFile[]; env: LoadOptions['env']; found: ReturnType<typeof readDefinitions> } | undefined;

const sameFiles = (a: readonly SourceFile[], b: readonly SourceFile[]): boolean =>
  a.length === b.length && a.every((f, i) => f.file === b[i]!.file && f.text === b[i]!.text);

/** `NAME: ${NAME}` (quoted or not, block or flow style): a variable defined as itself. */
const SELF_REFERENCE = /(?:^|[\s{,])([A-Za-z_][A-Za-z0-9_]*)[ \t]*:[ \t]*(["']?)\$\{\1\}\2(?=[ \t]*(?:[,}#]|$))/gm;

function readDefinitions(candidates: SourceFile[], env: LoadOptions['env']): { environments: EnvironmentDef[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  // An unset ${VAR} (usually one the environments define) would send a file down the slow precise
  // path; here it only needs some value, and each environment's own pass reports it, located.
  // Names written with a default (`${NAME:-x}`) stay unset, so the default applies as usual.
  const withDefault = new Set(candidates.flatMap((f) => [...f.text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):-/g)].map((m) => m[1]!)));
  const unset = new Set<string>();
  const lenient = new LenientScope(env, withDefault, unset);
  const parsed = candidates.map((f) => parseFile(f, lenient, []));
  const environments = readEnvironments(parsed, diagnostics);
  // `A: "${A}"` with A unset: the stand-in '' must not define A, or every ${A} would quietly be
  // empty instead of reported unset (env.unset, at each use, for this environment). Only a value
  // that is exactly its own reference: `A: ""` and `A: "${A:-}"` are empty on purpose.
  const selfReferences = new Set(candidates.flatMap((f) => [...f.text.matchAll(SELF_REFERENCE)].map((m) => m[1]!)));
  for (const def of environments) {
    for (const [name, value] of Object.entries(def.variables)) {
      if (value === '' && unset.has(name) && selfReferences.has(name)) delete def.variables[name];
    }
  }
  return { environments, diagnostics };
}

/** Reads as the process-only scope does, but an unresolved name gets '' (unless it has a default) and is noted in `unset`. */
class LenientScope extends VariableScope {
  constructor(env: LoadOptions['env'], private readonly withDefault: ReadonlySet<string>, private readonly unset: Set<string>) {
    super(env);
  }

  override get(name: string): string | undefined {
    const v = super.get(name);
    if (v !== undefined) return v;
    this.unset.add(name);
    return this.withDefault.has(name) ? undefined : '';
  }
}

/** A finding in every environment is reported once; one in some of them names them. */
function acrossEnvironments(passes: readonly { def: EnvironmentDef; diagnostics: Diagnostic[] }[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.loc?.file}:${d.loc?.line}:${d.loc?.col}|${d.code}|${d.address}|${d.message}`;
  return mergeAcrossEnvironments(passes.map((p) => ({ name: p.def.name, items: p.diagnostics })), key, forEnvironment);
}

function noSuchEnvironment(name: string, names: readonly string[]): Diagnostic {
  const message = names.length === 0
    ? `--env ${name}: the config defines no environments. Add a top-level \`environments:\` mapping, or drop --env/MENUCTL_ENV.`
    : `--env ${name}: no such environment; the config defines ${names.map((n) => `\`${n}\``).join(', ')}.${didYouMean(name, names)}`;
  return { severity: 'error', code: 'environment.unknown', message };
}

/**
 * Only the environments a config defines (before connecting: `--env` picks the API URL and the
 * credentials). `readable` is false when the files could not be read; loading reports why.
 */
export async function loadEnvironments(paths: string[], options: LoadOptions): Promise<{ environments: EnvironmentDef[]; readable: boolean }> {
  const read = await readSources(paths, options.cwd);
  const found = findEnvironments(read.files, options.env);
  return { environments: found.environments, readable: !hasErrors(read.diagnostics) };
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

function merge(models: FileModel[], def?: EnvironmentDef): DesiredState {
  const state: DesiredState = { actions: [], apps: [], files: models.map((m) => m.file) };
  for (const m of models) {
    if (state.organization_id === undefined && m.organization_id !== undefined) state.organization_id = m.organization_id;
    if (m.ignore.length > 0) (state.ignore ??= []).push(...m.ignore);
    for (const a of m.actions) state.actions.push(a);
    for (const a of m.apps) state.apps.push(a);
  }
  if (def) {
    // The environment's organization is its guard; a top-level organization_id is the default.
    state.environment = def.name;
    if (def.organization_id !== undefined) state.organization_id = def.organization_id;
  }
  return state;
}
