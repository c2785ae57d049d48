// The config pipeline, load then evaluate (as Terraform does): files -> values as written (each
// file parsed once, aliases bounded; positions only on demand) -> per environment (or once, with
// none): ${VAR} interpolated -> schema -> model -> semantic checks. Every problem is collected;
// state is null if any is an error.

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
import { readSources, type ReadTexts, type SourceFile } from './files.js';
import { evaluate } from './evaluate.js';
import { parseFile, type ParsedFile } from './parse.js';
import { validateSchema } from './schema.js';
import type { ConfigSource, Json } from './source.js';
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

type Definitions = { environments: EnvironmentDef[]; diagnostics: Diagnostic[] };

/** What loadEnvironments leaves for the load that follows: the texts read, the parses made, the definitions found. */
interface Handover {
  texts: ReadTexts;
  parses: ParsedFile[];
  /** The definitions, found in `parses` (the same sources) with this process environment. */
  found: { sources: ConfigSource[]; env: LoadOptions['env']; definitions: Definitions } | undefined;
}

/**
 * What finding the environments read and parsed (loadEnvironments), for the load that follows in
 * the same command: the CLI finds them before connecting (`--env` picks the API URL), then loads
 * (loadConfig's `read`). That load reads an unchanged file with a stat, parses none of these
 * files again, and loads the very definitions the command acted on. It takes the contents, so
 * no parse outlives it (a parse holds a file's values as written); and each command makes its
 * own, so two commands in one process share nothing.
 */
export class ConfigRead {
  private handed: Handover | undefined;

  constructor(handed: Handover) {
    this.handed = handed;
  }

  /** The texts read, until the load takes them: another read of the config in this command reuses those of unchanged files. */
  get texts(): ReadTexts | undefined {
    return this.handed?.texts;
  }

  /** The contents, once. */
  take(): Handover | undefined {
    const handed = this.handed;
    this.handed = undefined;
    return handed;
  }
}

/** Loads config already in memory (tests, and callers that have the text). */
export function loadSources(files: SourceFile[], options: LoadOptions & LoadExtras, initial: Diagnostic[] = []): LoadOutput {
  return loadFiles(files, options, initial, undefined);
}

function loadFiles(files: SourceFile[], options: LoadOptions & LoadExtras, initial: Diagnostic[], handed: Handover | undefined): LoadOutput {
  const sources = new SourceTexts(files);
  packBigConfig(files);
  const parsed = new Parses(files, handed?.parses ?? []);
  const { environments, diagnostics: definitions } = findEnvironments(parsed.candidates(), options.env, handed?.found);
  const names = environments.map((e) => e.name);
  const finish = (diagnostics: Diagnostic[], state: DesiredState | null, extra: Partial<LoadOutput> = {}): LoadOutput => {
    // The values as written were for the passes: the model is what the commands use. Kept, they
    // doubled the memory of a big config for the whole run.
    for (const p of parsed.made()) p.values = undefined;
    const sorted = dedupe(sortDiagnostics([...initial, ...definitions, ...diagnostics])).map(shortenAddress);
    settle(parsed.made());
    return { state: hasErrors(sorted) ? null : state, diagnostics: sorted, sources, environments, ...extra };
  };
  if (environments.length === 0) {
    const pass = loadPass(parsed, options, names, undefined, false);
    if (options.environment !== undefined) pass.diagnostics.push(noSuchEnvironment(options.environment, names));
    return finish(pass.diagnostics, pass.state);
  }
  if (options.environment !== undefined) {
    const def = environments.find((e) => e.name === options.environment);
    if (!def) return finish([noSuchEnvironment(options.environment, names)], null);
    const pass = loadPass(parsed, options, names, def, false);
    return finish(pass.diagnostics.map((d) => (d.code === 'env.unset' || d.code === 'env.undeclared' ? forEnvironment(d, def.name) : d)), pass.state);
  }
  // Every environment from the same parsed values: each pass copies what its variables change.
  const passes = environments.map((def) => ({ def, ...loadPass(parsed, options, names, def, true) }));
  const perEnvironment = passes.map((p) => ({ name: p.def.name, state: hasErrors(p.diagnostics) ? null : p.state }));
  return finish(acrossEnvironments(passes), passes[0]!.state, { perEnvironment });
}

/**
 * Each file parsed once, when first needed: the parses loadEnvironments made for the same texts
 * (`given`: the CLI finds the environments before connecting, then loads), the others as the pass
 * reaches them, so a single pass holds one file's values as written at a time, not the whole config's.
 */
class Parses {
  private readonly done: (ParsedFile | undefined)[];

  constructor(private readonly files: readonly SourceFile[], given: readonly ParsedFile[]) {
    this.done = files.map((f) => given.find((p) => sameText(p, f)));
  }

  get length(): number {
    return this.files.length;
  }

  at(i: number): ParsedFile {
    return (this.done[i] ??= parseFile(this.files[i]!));
  }

  /** The files that can define environments (a substring search), parsed. */
  candidates(): ParsedFile[] {
    return this.files.flatMap((f, i) => {
      const may = mayDefineEnvironments(f.text);
      if (!may) f.holder?.release();
      return may ? [this.at(i)] : [];
    });
  }

  /** The parses made so far. */
  made(): ParsedFile[] {
    return this.done.filter((p): p is ParsedFile => p !== undefined);
  }
}

/** A parse of this very file: the same holder (read from disk once), else the same name and text. */
const sameText = (p: ParsedFile, f: SourceFile): boolean =>
  p.src.file === f.file && ((p.src.holder !== undefined && p.src.holder === f.holder) || p.src.text === f.text);

/** Texts of at least this many characters in all are kept packed (text/packed-text.ts). */
const PACK_FROM = 4 * 1024 * 1024;

/**
 * A big config's texts are packed before the load, and each inflated only while its file is
 * parsed (the pass releases it once the file's model is built): held plain until the end of the
 * load, the texts were a good part of its peak. Deflate and inflate are cheap beside the parse.
 */
function packBigConfig(files: readonly SourceFile[]): void {
  let total = 0;
  for (const f of files) total += f.holder?.length ?? 0;
  if (total >= PACK_FROM) for (const f of files) f.holder?.pack();
}

/**
 * After the load: positioned Documents built to locate its findings are dropped (their locations
 * are resolved), and a big config's texts are packed. Both come back on demand, if a later
 * finding needs a position or a source line.
 */
function settle(parsed: readonly ParsedFile[]): void {
  let total = 0;
  // A holder knows its length: reading `text` would inflate every packed one again.
  for (const p of parsed) total += p.src.holder?.length ?? p.src.text.length;
  for (const p of parsed) {
    if (total >= PACK_FROM) p.src.holder?.pack();
    p.src.releasePositions();
  }
}

/** The config's texts by displayed name, read through each file's holder (a packed one is inflated on demand). */
class SourceTexts implements ReadonlyMap<string, string> {
  private readonly byName: Map<string, SourceFile>;

  constructor(files: readonly SourceFile[]) {
    this.byName = new Map(files.map((f) => [f.file, f]));
  }

  get size(): number { return this.byName.size; }
  has(file: string): boolean { return this.byName.has(file); }
  get(file: string): string | undefined { return this.byName.get(file)?.text; }
  keys(): MapIterator<string> { return this.byName.keys(); }
  *values(): MapIterator<string> { for (const f of this.byName.values()) yield f.text; }
  *entries(): MapIterator<[string, string]> { for (const [k, f] of this.byName) yield [k, f.text]; }
  [Symbol.iterator](): MapIterator<[string, string]> { return this.entries(); }
  forEach(fn: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/**
 * One pass over the whole config, for one environment or for a config without environments.
 * `shared`: other passes follow on the same parsed values (evaluation copies, never changes them).
 */
function loadPass(parsed: Parses, options: LoadOptions & LoadExtras, names: readonly string[], def: EnvironmentDef | undefined, shared: boolean): Pass {
  const diagnostics: Diagnostic[] = [];
  const models: FileModel[] = [];
  const scope = scopeFor(options.env, def);
  for (let i = 0; i < parsed.length; i++) {
    const p = parsed.at(i);
    for (const d of p.diagnostics) diagnostics.push(d);
    const file = evaluate(p, scope, diagnostics, { shared });
    if (file.root) {
      // No push(...list): spreading 100,000+ items as arguments overflows the stack.
      for (const d of validateSchema(file.root, file.src, file.reported)) diagnostics.push(d);
      models.push(new ModelBuilder(file.src, def?.name).file(file.root));
    }
    checkEnvironmentLists([file], names, diagnostics);
    // The only pass: the file's values as written are done with (the model is built), and kept
    // they would add up to the whole config's before the checks below.
    if (!shared) p.values = undefined;
    // Its text too, if packed: a finding located later inflates it again.
    p.src.holder?.release();
  }
  const ctx: CheckContext = { files: models, origins: { get: originOf }, catalog: options.catalog ?? bundledCatalog(), diagnostics };
  checkDuplicates(ctx);
  checkActions(ctx);
  checkParsers(ctx);
  checkFixtures(ctx);
  checkSessions(ctx);
  if (def && def.organization_id === undefined && !models.some((m) => m.organization_id !== undefined)) diagnostics.push(unguarded(def));
  return { diagnostics, state: hasErrors(diagnostics) ? null : merge(models, def) };
}

/**
 * The definitions, from the parsed files that can hold them, their values evaluated with the
 * process environment (their other findings are reported by the passes that follow). A config
 * without environments pays only a substring search.
 */
function findEnvironments(parsed: readonly ParsedFile[], env: LoadOptions['env'], known: Handover['found']): Definitions {
  return findEnvironmentsIn(parsed, env, known).definitions;
}

/**
 * findEnvironments, with the sources they were found in. `known`: those loadEnvironments found,
 * used when they come from the very same parses (the CLI finds them before connecting, then
 * loads the same parses): the definitions it acted on are the ones loaded.
 */
function findEnvironmentsIn(parsed: readonly ParsedFile[], env: LoadOptions['env'], known: Handover['found']): NonNullable<Handover['found']> {
  const candidates = parsed.filter((p) => mayDefineEnvironments(p.src.text));
  const sources = candidates.map((p) => p.src);
  if (candidates.length === 0) return { sources, env, definitions: { environments: [], diagnostics: [] } };
  if (known && known.env === env && known.sources.length === sources.length && known.sources.every((s, i) => s === sources[i])) return known;
  return { sources, env, definitions: readDefinitions(candidates, env) };
}

function readDefinitions(candidates: readonly ParsedFile[], env: LoadOptions['env']): Definitions {
  const diagnostics: Diagnostic[] = [];
  // An unset ${VAR} (usually one the environments define) only needs some value here; each
  // environment's own pass reports it, located. Names written with a default (`${NAME:-x}`)
  // stay unset, so the default applies as usual.
  const withDefault = new Set(candidates.flatMap((p) => [...p.src.text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):-/g)].map((m) => m[1]!)));
  const unset = new Set<string>();
  const lenient = new LenientScope(env, withDefault, unset);
  // Only the definitions are evaluated, and without changing the parsed values the passes read.
  const files = candidates.map((p) => evaluate(p, lenient, [], { shared: true, only: 'environments' }));
  const environments = readEnvironments(files, diagnostics);
  // `A: "${A}"` with A unset: the stand-in '' must not define A, or every ${A} would quietly be
  // empty instead of reported unset (env.unset, at each use, for this environment). Only a value
  // written as exactly its own reference, in that environment (read from the values as written,
  // however quoted): `A: ""` and `A: "${A:-}"` are empty on purpose.
  for (const def of environments) {
    const written = variablesAsWritten(candidates.find((p) => p.src === def.src)!, def.name);
    for (const [name, value] of Object.entries(def.variables)) {
      if (value === '' && unset.has(name) && written?.[name] === `\${${name}}`) delete def.variables[name];
    }
  }
  return { environments, diagnostics };
}

/** `environments.<name>.variables` as parsed, before evaluation. */
function variablesAsWritten(p: ParsedFile, name: string): Record<string, Json> | undefined {
  const at = (v: unknown, key: string): unknown => (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined);
  const variables = at(at(at(p.values, 'environments'), name), 'variables');
  return variables !== null && typeof variables === 'object' && !Array.isArray(variables) ? variables as Record<string, Json> : undefined;
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
 * `read` is for the load that follows (loadConfig's `read`). `earlier`: another ConfigRead of
 * this command, whose texts of unchanged files are reused (not its parses: a load takes those).
 */
export async function loadEnvironments(
  paths: string[], options: LoadOptions & { earlier?: ConfigRead | undefined },
): Promise<{ environments: EnvironmentDef[]; readable: boolean; read: ConfigRead }> {
  const read = await readSources(paths, options.cwd, options.earlier?.texts);
  // Only the files that can define environments; their parses go to the load that follows.
  const parses = read.files.filter((f) => mayDefineEnvironments(f.text)).map((f) => parseFile(f));
  const found = findEnvironmentsIn(parses, options.env, undefined);
  return {
    environments: found.definitions.environments,
    readable: !hasErrors(read.diagnostics),
    read: new ConfigRead({ texts: read.texts, parses, found }),
  };
}

/**
 * Reads and loads the config. `read`: what loadEnvironments read for this command, taken here
 * (and so dropped once this load is done).
 */
export async function loadConfig(paths: string[], options: LoadOptions & LoadExtras & { read?: ConfigRead | undefined }): Promise<LoadOutput> {
  const { read: earlier, ...rest } = options;
  const handed = earlier?.take();
  const read = await readSources(paths, options.cwd, handed?.texts);
  return loadFiles(read.files, rest, read.diagnostics, handed);
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
