// Environments (docs/config.md "Environments"): one config planned against several organizations.
// The top-level `environments:` mapping names each one's API, organization and `${VAR}` values;
// `environments: [names]` on an action, parser or app limits where it exists. Pure: the loader
// (./load.ts) parses each file once, finds the definitions in those values, then evaluates the
// values once per environment (./evaluate.ts) with that environment's variables in front of the
// MENUCTL_VAR_ process variables.

import type { Diagnostic } from '../model/diagnostic.js';
import { processVariable, VariableScope } from './interpolate.js';
import { didYouMean } from '../text/suggest.js';
import type { ConfigSource, Segment } from './source.js';

export interface EnvironmentDef {
  name: string;
  api_url?: string;
  organization_id?: number;
  /** Values for `${VAR}` when this environment is selected (numbers and booleans as written). */
  variables: Record<string, string>;
  /** Where it is defined, for findings about it. */
  src: ConfigSource;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file that cannot define environments is not parsed to find them (before connecting): the word must appear in it. */
export const mayDefineEnvironments = (text: string): boolean => text.includes('environments');

/**
 * The definitions in these parsed files, in the order written. Shapes the schema refuses are
 * skipped here (the schema reports them); a name defined twice is reported.
 */
export function readEnvironments(files: readonly { src: ConfigSource; root: Obj | null }[], diagnostics: Diagnostic[]): EnvironmentDef[] {
  const defs = new Map<string, EnvironmentDef>();
  for (const { src, root } of files) {
    if (!root || !isObj(root.environments)) continue;
    for (const [name, raw] of Object.entries(root.environments)) {
      if (!isObj(raw)) continue;
      const prev = defs.get(name);
      if (prev) {
        const at = prev.src.locate(['environments', name], { key: true });
        diagnostics.push({ severity: 'error', code: 'environment.duplicate', loc: src.locate(['environments', name], { key: true }),
          message: `environment ${JSON.stringify(name)} is defined twice: here and at ${at.file}:${at.line}:${at.col}. Keep one.` });
        continue;
      }
      // `prod-eu` and `prod_eu` (or `Prod` and `prod`) would read one MENUCTL_TOKEN_PROD_EU: a
      // credential meant for one environment must never act for another.
      const clash = [...defs.values()].find((d) => credentialVariable('MENUCTL_TOKEN', d.name) === credentialVariable('MENUCTL_TOKEN', name));
      if (clash) {
        const at = clash.src.locate(['environments', clash.name], { key: true });
        diagnostics.push({ severity: 'error', code: 'environment.credential-clash', loc: src.locate(['environments', name], { key: true }),
          message: `environments ${JSON.stringify(clash.name)} (${at.file}:${at.line}:${at.col}) and ${JSON.stringify(name)} would both take their credentials from ${credentialVariable('MENUCTL_TOKEN', name)}. Rename one.` });
        continue;
      }
      defs.set(name, definition(name, raw, src));
    }
  }
  return [...defs.values()];
}

function definition(name: string, raw: Obj, src: ConfigSource): EnvironmentDef {
  const def: EnvironmentDef = { name, variables: {}, src };
  if (typeof raw.api_url === 'string') def.api_url = raw.api_url;
  if (typeof raw.organization_id === 'number' && Number.isInteger(raw.organization_id)) def.organization_id = raw.organization_id;
  if (isObj(raw.variables)) {
    for (const [k, v] of Object.entries(raw.variables)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') def.variables[k] = src.written(raw.variables, k) ?? String(v);
    }
  }
  return def;
}

/** What `${VAR}` reads in an environment (or with none): its variables first, then MENUCTL_VAR_VAR. */
export function scopeFor(processEnv: Record<string, string | undefined>, def?: EnvironmentDef): VariableScope {
  return new VariableScope(processEnv, def?.variables);
}

/** Whether a resource written as `raw` exists in `environment` (every resource does when none is selected). */
export function inEnvironment(raw: Obj, environment: string | undefined): boolean {
  if (environment === undefined || !Array.isArray(raw.environments)) return true;
  return raw.environments.includes(environment);
}

/**
 * Every `environments: [names]` on an action, parser or app names a defined environment
 * (did-you-mean for a typo); without top-level `environments:` the list itself is the mistake.
 */
export function checkEnvironmentLists(files: readonly { src: ConfigSource; root: Obj | null }[], names: readonly string[], diagnostics: Diagnostic[]): void {
  for (const { src, root } of files) {
    if (!root) continue;
    forEachList(root, (list, path) => {
      list.forEach((name, i) => {
        if (typeof name !== 'string' || names.includes(name)) return;
        const message = names.length === 0
          ? `\`environments: [${name}]\` limits this resource to an environment, but the config defines none. Add a top-level \`environments:\` mapping, or remove this list.`
          : `unknown environment ${JSON.stringify(name)}; the config defines ${names.map((n) => `\`${n}\``).join(', ')}.${didYouMean(name, names)}`;
        diagnostics.push({ severity: 'error', code: 'environment.unknown', loc: src.locate([...path, i]), message });
      });
    });
  }
}

function forEachList(root: Obj, visit: (list: unknown[], path: Segment[]) => void): void {
  const at = (raw: unknown, path: Segment[]) => {
    if (isObj(raw) && Array.isArray(raw.environments)) visit(raw.environments, [...path, 'environments']);
  };
  (Array.isArray(root.actions) ? root.actions : []).forEach((a, i) => {
    at(a, ['actions', i]);
    if (isObj(a) && Array.isArray(a.parsers)) a.parsers.forEach((p, j) => at(p, ['actions', i, 'parsers', j]));
  });
  (Array.isArray(root.apps) ? root.apps : []).forEach((a, i) => at(a, ['apps', i]));
}

/** An environment without organization_id has no guard: a staging token would be accepted for it. */
export function unguarded(def: EnvironmentDef): Diagnostic {
  return { severity: 'warning', code: 'environment.no-organization', loc: def.src.locate(['environments', def.name], { key: true }),
    message: `environment ${JSON.stringify(def.name)} has no organization_id, so nothing stops credentials for another organization from being used with it. Add \`organization_id:\`.` };
}

/**
 * A finding from one environment's pass, named for it. An unresolved `${VAR}` says where the
 * value can come from; anything else gets the environment appended.
 */
export function forEnvironment(d: Diagnostic, name: string): Diagnostic {
  const unresolved = d.code === 'env.unset' || d.code === 'env.undeclared' ? /^variable (\S+) (?:is not set|has no value)\.(.*)$/s.exec(d.message) : null;
  if (!unresolved) return { ...d, message: `${d.message} (environment ${JSON.stringify(name)})` };
  const variable = unresolved[1]!;
  const state = d.code === 'env.undeclared' ? 'has no value' : 'is not set';
  const where = `variable ${variable} ${state} for environment ${JSON.stringify(name)}: add it to \`environments.${name}.variables\``;
  // env.undeclared keeps its hint (the unprefixed variable is set, and why it is not read).
  const message = d.code === 'env.undeclared'
    ? `${where}.${unresolved[2]}`
    : `${where}, or set ${processVariable(variable)} in the process environment.`;
  return { ...d, message };
}

/**
 * Findings or results from one pass per environment, merged: what every environment has is kept
 * once, as is; what only some have is kept per environment, tagged by `tag`. Order: first seen.
 */
export function mergeAcrossEnvironments<T>(
  passes: readonly { name: string; items: readonly T[] }[], key: (item: T) => string, tag: (item: T, environment: string) => T,
): T[] {
  const count = new Map<string, number>();
  for (const p of passes) for (const k of new Set(p.items.map(key))) count.set(k, (count.get(k) ?? 0) + 1);
  const out: T[] = [];
  const shared = new Set<string>();
  for (const p of passes) {
    for (const item of p.items) {
      const k = key(item);
      if (count.get(k) !== passes.length) out.push(tag(item, p.name));
      else if (!shared.has(k)) { shared.add(k); out.push(item); }
    }
  }
  return out;
}

/** The process variable that holds a credential for an environment: MENUCTL_TOKEN_<NAME>, name upper-cased, `-` as `_`. */
export type CredentialBase = 'MENUCTL_TOKEN' | 'MENUCTL_EMAIL' | 'MENUCTL_PASSWORD';

export function credentialVariable(base: CredentialBase, environment: string): string {
  return `${base}_${environment.toUpperCase().replace(/-/g, '_')}`;
}
