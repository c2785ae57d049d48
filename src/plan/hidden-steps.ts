// Step details the API never echoes (spec: Action.steps echoes only values): the step kind,
// expect text and description. The applied-state record answers for the actions it holds;
// plan and drift warn, once, about the others, where a change to those alone would not show.

import { kindOf } from '../model/kinds/index.js';
import type { RecordedScope } from '../model/types.js';
import type { Comparison } from './compare.js';
import type { TargetScope } from './targets.js';

/**
 * Live actions in scope, not in the record, whose config steps carry details the API does not
 * echo, minus `except`.
 */
export function countHiddenStepActions(cmp: Comparison, scope: TargetScope, except: ReadonlySet<string> = new Set()): number {
  // The kind first: only actions have hidden details, and a parser's address is built when read.
  return cmp.pairs.filter((p) => {
    const hidden = kindOf(p.type).hiddenDetails;
    return hidden !== undefined && p.live !== null && !p.recorded && !except.has(p.address) && scope.includes(p.address) && hidden.has(p.spec);
  }).length;
}

/** Why the record does not answer, for the warning: no file, nothing for this API, or some actions missing. */
export function unrecordedWhy(r: RecordedScope | undefined): string {
  if (r === undefined) return 'no applied-state record was read';
  if (r.scope === null) return `${r.file} has no record for this API yet (a first run here, or the file was lost)`;
  return `${r.file} has no record of them (applied before the record existed, or their lines were lost)`;
}
