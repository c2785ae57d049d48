// diff-env: what differs between two environments' live resources, for the resources the config
// manages in both (a team's "what is not promoted yet"). Pure. Each environment's live resource
// is found the way its own plan finds it (compareStates), then the two live resources are
// compared in canonical form, so ids, timestamps and operator order never count. Values that
// come from per-environment variables are expected to differ: in each live value, the
// environment's own value of every variable the two environments set differently is read back
// as `${NAME}` before comparing (docs/config.md "Comparing environments").

import type { Diagnostic } from '../model/diagnostic.js';
import { kindOf } from '../model/kinds/index.js';
import type { DesiredState, LiveAction, LiveApp, LiveParser, LiveState, RecordedScope, ResourceType } from '../model/types.js';
import { compareStates, type Pair } from './compare.js';
import { rank } from './order.js';

export interface EnvSide {
  name: string;
  desired: DesiredState;
  live: LiveState;
  /** The applied-state record for this environment's API, when one was read: the app ids the API cannot list. */
  recorded?: RecordedScope | undefined;
  /** The environment's `variables:` (not the process environment). */
  variables: Readonly<Record<string, string>>;
}

export interface EnvFieldDifference {
  path: string;
  a: unknown;
  b: unknown;
}

export interface EnvDifference {
  type: ResourceType;
  address: string;
  /** changed: both have it, fields differ; missing: one environment has no live resource; archived: archived in one only. */
  class: 'changed' | 'missing' | 'archived';
  /** For missing and archived: the environment where it is absent or archived. */
  in?: string;
  fields: EnvFieldDifference[];
}

export interface EnvDiff {
  format_version: 1;
  a: string;
  b: string;
  same: boolean;
  differences: EnvDifference[];
  /** Resources the config limits to one of the two (`environments:`): by design not compared. */
  only_in_config: { address: string; environment: string }[];
  /** Variables read back as `${NAME}` in live values (set differently in the two environments). */
  masked_variables: string[];
  /** Resources neither environment has live yet: nothing to compare. */
  not_applied: string[];
}

type LiveResource = LiveAction | LiveParser | LiveApp;

function canonical(type: ResourceType, live: LiveResource): Record<string, unknown> {
  return { ...kindOf(type).canonicalLive(live) };
}

/** Variables whose values differ between the two environments, longest value first per side. */
function maskedNames(a: EnvSide, b: EnvSide): string[] {
  const names = new Set([...Object.keys(a.variables), ...Object.keys(b.variables)]);
  return [...names].filter((n) => a.variables[n] !== b.variables[n]).sort();
}

/** Replaces an environment's own variable values by `${NAME}` in every string of a value. */
function masker(side: EnvSide, names: readonly string[]): (v: unknown) => unknown {
  const pairs = names
    .flatMap((n) => (side.variables[n] ? [[side.variables[n]!, `\${${n}}`] as const] : []))
    .sort(([x], [y]) => y.length - x.length);
  const mask = (v: unknown): unknown => {
    if (typeof v === 'string') return pairs.reduce((s, [value, ref]) => s.split(value).join(ref), v);
    if (Array.isArray(v)) return v.map(mask);
    return v;
  };
  return mask;
}

const pairsByAddress = (pairs: readonly Pair[]) => new Map(pairs.map((p) => [p.address, p]));

/**
 * A name or category written with a per-environment variable (`name: "Balance ${CODE}"`) has a
 * different address in each environment, yet is one resource of the config. Addresses that have
 * no exact counterpart are paired when they read the same with the variables read back as
 * `${NAME}`, and are then keyed by that form in both maps. Exact matches go first, so a variable
 * value that happens to occur in another name cannot pull it apart from its counterpart.
 */
function pairUpByMaskedAddress(byA: Map<string, Pair>, byB: Map<string, Pair>, maskA: (v: unknown) => unknown, maskB: (v: unknown) => unknown): void {
  const unmatched = (from: Map<string, Pair>, other: Map<string, Pair>, mask: (v: unknown) => unknown) => {
    const out = new Map<string, string[]>();
    for (const address of from.keys()) {
      if (other.has(address)) continue;
      const key = mask(address) as string;
      if (key !== address) out.set(key, [...(out.get(key) ?? []), address]);
    }
    return out;
  };
  const restA = unmatched(byA, byB, maskA);
  const restB = unmatched(byB, byA, maskB);
  for (const [key, [addressA, ...moreA]] of restA) {
    const inB = restB.get(key);
    if (!addressA || moreA.length > 0 || !inB || inB.length !== 1 || byA.has(key) || byB.has(key)) continue;
    const pa = byA.get(addressA)!;
    const pb = byB.get(inB[0]!)!;
    byA.delete(addressA); byB.delete(inB[0]!);
    byA.set(key, pa); byB.set(key, pb);
  }
}

export function diffEnvironments(a: EnvSide, b: EnvSide): { diff: EnvDiff; diagnostics: Diagnostic[] } {
  const cmpA = compareStates(a.desired, a.live, a.recorded);
  const cmpB = compareStates(b.desired, b.live, b.recorded);
  const byA = pairsByAddress(cmpA.pairs);
  const byB = pairsByAddress(cmpB.pairs);
  const names = maskedNames(a, b);
  const maskA = masker(a, names);
  const maskB = masker(b, names);
  pairUpByMaskedAddress(byA, byB, maskA, maskB);
  const differences: EnvDifference[] = [];
  const notApplied: string[] = [];
  for (const [address, pa] of byA) {
    const pb = byB.get(address);
    if (!pb) continue;
    const la = pa.live as LiveResource | null;
    const lb = pb.live as LiveResource | null;
    if (!la && !lb) { notApplied.push(address); continue; }
    if (!la || !lb) {
      differences.push({ type: pa.type, address, class: 'missing', in: la ? b.name : a.name, fields: [] });
      continue;
    }
    if ((la.archived_at === null) !== (lb.archived_at === null)) {
      differences.push({ type: pa.type, address, class: 'archived', in: la.archived_at !== null ? a.name : b.name, fields: [] });
      continue;
    }
    const ca = canonical(pa.type, la);
    const cb = canonical(pa.type, lb);
    const fields = Object.keys(ca)
      .map((path) => ({ path, a: maskA(ca[path]), b: maskB(cb[path]) }))
      .filter((f) => JSON.stringify(f.a) !== JSON.stringify(f.b));
    if (fields.length > 0) differences.push({ type: pa.type, address, class: 'changed', fields });
  }
  const only = [
    ...[...byA.keys()].filter((k) => !byB.has(k)).map((address) => ({ address, environment: a.name })),
    ...[...byB.keys()].filter((k) => !byA.has(k)).map((address) => ({ address, environment: b.name })),
  ];
  const order = (x: { type: ResourceType; address: string }, y: { type: ResourceType; address: string }) =>
    rank({ op: 'update', type: x.type }) - rank({ op: 'update', type: y.type }) || (x.address < y.address ? -1 : x.address > y.address ? 1 : 0);
  differences.sort(order);
  const diff: EnvDiff = {
    format_version: 1, a: a.name, b: b.name, same: differences.length === 0, differences,
    only_in_config: only.sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0)),
    masked_variables: names,
    not_applied: notApplied.sort(),
  };
  return { diff, diagnostics: [...cmpA.diagnostics, ...cmpB.diagnostics] };
}
