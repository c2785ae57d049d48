// Field-level differences between canonical forms. Paths are stable (they are part of the plan
// JSON that people and scripts read); `before` is the live value, `after` the desired one.

import { canonicalStep } from '../model/canonical.js';
import { KINDS, type Kind } from '../model/kinds/index.js';
import type { RecordedAction } from '../record/record.js';
import type { ResolvedApp, LiveAction, LiveApp, LiveParser, ResolvedParser } from '../model/types.js';
import type { ResolvedAction, FieldChange } from './types.js';

/**
 * No differences: one shared, frozen list. A plan holds a pair per resource and nearly all of
 * them differ in nothing: an empty list each added up. Frozen, so code
 * that would add to it fails loudly instead of changing every pair.
 */
export const NO_FIELD_CHANGES = Object.freeze([]) as unknown as FieldChange[];

/** The fields of a kind's canonical form (its `paths`) that differ between live and desired. */
export function diffKind<L, S>(kind: Kind<L, S>, live: L, desired: S, nameOf: (id: number) => string): FieldChange[] {
  const before = kind.canonicalLive(live) as Record<string, unknown>;
  const after = kind.canonical(desired, nameOf) as Record<string, unknown>;
  let out: FieldChange[] | undefined;
  for (const path of kind.paths) {
    if (!same(before[path], after[path])) {
      (out ??= []).push({ path, before: before[path], after: after[path] });
    }
  }
  return out ?? NO_FIELD_CHANGES;
}

// Parsers and apps name no operators: their canonical forms never call it.
const noOperators = (): string => {
  throw new Error('only an action names operators');
};

// Canonical values are strings, nulls and arrays of strings (see model/canonical.ts).
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

export function diffAction(live: LiveAction, desired: ResolvedAction, nameOf: (id: number) => string): FieldChange[] {
  return diffKind(KINDS.action, live, desired, nameOf);
}

export function diffParser(live: LiveParser, desired: ResolvedParser): FieldChange[] {
  return diffKind(KINDS.parser, live, desired, noOperators);
}

export function diffApp(live: LiveApp, desired: ResolvedApp): FieldChange[] {
  return diffKind(KINDS.app, live, desired, noOperators);
}

/**
 * What the API does not echo, against what the record says was applied: each step's kind,
 * `expect` and description (`steps[i].kind`...), and the world operator ids (`operator_ids`:
 * names are not unique). Only for steps at the same position: a change in the number of
 * steps already shows in `steps`.
 */
export function diffRecordedAction(recorded: RecordedAction, desired: ResolvedAction): FieldChange[] {
  const out: FieldChange[] = [];
  const steps = desired.steps.map(canonicalStep);
  const n = Math.min(steps.length, recorded.steps.length);
  for (let i = 0; i < n; i++) {
    const was = recorded.steps[i]!;
    const is = steps[i]!;
    for (const key of ['kind', 'expect', 'description'] as const) {
      const before = was[key] ?? null;
      const after = is[key] ?? null;
      if (before !== after) out.push({ path: `steps[${i}].${key}`, before, after });
    }
  }
  const ids = [...new Set(desired.operator_ids)].sort((a, b) => a - b);
  const recordedIds = [...recorded.operator_ids].sort((a, b) => a - b);
  if (!same(ids, recordedIds)) out.push({ path: 'operator_ids', before: recordedIds, after: ids });
  return out;
}
