// buildDriftResult: the plan's comparison read the other way round: what changed live, outside the
// config. Same matching, same canonical forms, same order as the plan.

import { warning, type Diagnostic, type Warning } from '../model/diagnostic.js';
import type { DesiredState, LiveState, RecordedScope, ResourceType } from '../model/types.js';
import { compareStates, type Comparer, type Comparison, type Pair } from './compare.js';
import type { Drift, DriftField, DriftItem } from './drift-types.js';
import { countHiddenStepActions, unrecordedWhy } from './hidden-steps.js';
import { compareChanges } from './order.js';
import { managedOrphans } from './ownership.js';
import { ignoreMatcher } from '../model/ignore.js';
import { kindOf, parentOf } from '../model/kinds/index.js';
import { knownAddresses, targetScope, type TargetScope } from './targets.js';
import type { FieldChange } from './types.js';

export interface DriftOptions {
  targets?: string[];
  /** The applied-state record for this API (what the API does not echo); absent when none was read. */
  recorded?: RecordedScope | undefined;
}

export interface DriftResult {
  drift: Drift;
  /** Every managed resource that was compared (in --target scope), drifted or not: JUnit's passing cases. */
  checked: { type: ResourceType; address: string }[];
  /** Matching errors (ambiguity, unknown operators, bad targets): the report is incomplete. */
  diagnostics: Diagnostic[];
}

/**
 * The drift report and the problems that kept parts of it from being computed. `comparer`: the
 * comparison begun while the live state was read (engine/read-live.ts readLiveComparing); else it is made here.
 */
export function buildDriftResult(desired: DesiredState, live: LiveState, options: DriftOptions = {}, comparer?: Comparer): DriftResult {
  const { recorded } = options;
  const cmp = comparer ? comparer.finish(live, recorded) : compareStates(desired, live, recorded);
  const scope = targetScope(options.targets, () => knownAddresses(cmp, live));
  const diagnostics = [...cmp.diagnostics, ...scope.diagnostics];

  const items: DriftItem[] = [];
  const checked: DriftResult['checked'] = [];
  for (const pair of cmp.pairs) {
    if (!scope.includes(pair.address, parentOf(pair))) continue;
    checked.push({ type: pair.type, address: pair.address });
    const item = itemForPair(pair);
    if (item) items.push(item);
  }
  const owned = managedOrphans(cmp, recorded);
  const ignored = ignoreMatcher(desired.ignore);
  for (const o of cmp.orphans) {
    if (!scope.includes(o.address, parentOf(o))) continue;
    // A managed one is not drift made outside the config: the config removed it, apply archives it.
    if (owned.has(o)) {
      items.push({ class: 'removed', type: o.type, address: o.address, id: o.live.id, fields: [] });
    } else if (kindOf(o.type).ownedBy !== undefined || !ignored(o.address)) {
      items.push({ class: 'unmanaged', type: o.type, address: o.address, id: o.live.id, fields: [] });
    }
  }
  const asOp = (c: DriftItem['class']) => (c === 'unmanaged' || c === 'removed' ? 'archive' : 'update');
  items.sort((a, b) => compareChanges({ ...a, op: asOp(a.class) }, { ...b, op: asOp(b.class) }));
  const warnings = [...live.warnings];
  const hidden = hiddenStepWarning(cmp, scope, recorded);
  if (hidden) warnings.push(hidden);
  // As plan.target-partial: "in sync" then speaks for the targets only.
  if ((options.targets?.length ?? 0) > 0) {
    warnings.push(warning('drift.target-partial', 'This check is limited by --target: drift elsewhere in the config is not looked for; run without --target before relying on "in sync".'));
  }
  const environment = desired.environment !== undefined ? { environment: desired.environment } : {};
  return { drift: { format_version: 1, ...environment, in_sync: items.length === 0, drift: items, warnings }, checked, diagnostics };
}

function itemForPair(pair: Pair): DriftItem | null {
  const fields = pair.fields.map(driftField);
  if (pair.live === null) return { class: 'missing', type: pair.type, address: pair.address, id: null, fields: [] };
  if (pair.live.archived_at !== null) return { class: 'archived', type: pair.type, address: pair.address, id: pair.live.id, fields };
  if (fields.length > 0) return { class: 'changed', type: pair.type, address: pair.address, id: pair.live.id, fields };
  return null;
}

function hiddenStepWarning(cmp: Comparison, scope: TargetScope, recorded: RecordedScope | undefined): Warning | null {
  const count = countHiddenStepActions(cmp, scope);
  if (count === 0) return null;
  const what = count === 1 ? '1 action has' : `${count} actions have`;
  return warning('drift.hidden-steps', `${what} step details the API does not echo (step kind, expect text or description) and ${unrecordedWhy(recorded)}: ` +
    'drift cannot see a change to those alone. `menuctl apply --resend all` once sends them and records them.');
}

/** A plan's field read the other way round: its `after` is what the config expects, its `before` what is live. */
function driftField(f: FieldChange): DriftField {
  return { path: f.path, expected: f.after, live: f.before };
}
