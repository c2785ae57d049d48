// Step details the API never echoes (spec: Action.steps echoes only values): the step kind,
// expect text and description. Plan and drift both warn, once, about the actions where a
// change to those alone would not show; they count the same actions, worded per command.

import { hasHiddenStepDetails } from '../model/canonical.js';
import type { Comparison } from './compare.js';
import type { TargetScope } from './targets.js';

/** Live actions in scope whose config steps carry details the API does not echo, minus `except`. */
export function countHiddenStepActions(cmp: Comparison, scope: TargetScope, except: ReadonlySet<string> = new Set()): number {
  return cmp.pairs.filter(
    (p) => p.type === 'action' && p.live !== null && !except.has(p.address) && scope.includes(p.address) &&
      p.spec.steps.some(hasHiddenStepDetails),
  ).length;
}
