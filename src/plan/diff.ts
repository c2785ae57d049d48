// Field-level differences between canonical forms. Paths are stable (they are part of the plan
// JSON that people and scripts read); `before` is the live value, `after` the desired one.

import { canonicalApp, canonicalDesiredAction, canonicalLiveAction, canonicalParser } from '../model/canonical.js';
import type { LiveAction, LiveApp, LiveParser } from '../model/types.js';
import type { ActionDesired, AppDesired, FieldChange, ParserDesired } from './types.js';

const ACTION_PATHS = ['name', 'root_code', 'transport_type', 'operators', 'steps'] as const;
const PARSER_PATHS = ['status', 'category', 'target_type', 'sender', 'regex', 'user_message'] as const;
const APP_PATHS = ['name', 'package_name', 'webhook_url'] as const;

function diff<T extends object>(before: T, after: T, paths: readonly (keyof T & string)[]): FieldChange[] {
  const out: FieldChange[] = [];
  for (const path of paths) {
    if (!same(before[path], after[path])) {
      out.push({ path, before: before[path], after: after[path] });
    }
  }
  return out;
}

// Canonical values are strings, nulls and arrays of strings (see model/canonical.ts).
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

export function diffAction(live: LiveAction, desired: ActionDesired, nameOf: (id: number) => string): FieldChange[] {
  return diff(canonicalLiveAction(live), canonicalDesiredAction(desired, nameOf), ACTION_PATHS);
}

export function diffParser(live: LiveParser, desired: ParserDesired): FieldChange[] {
  return diff(canonicalParser(live), canonicalParser(desired), PARSER_PATHS);
}

export function diffApp(live: LiveApp, desired: AppDesired): FieldChange[] {
  return diff(canonicalApp(live), canonicalApp(desired), APP_PATHS);
}
