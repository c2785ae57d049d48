// `apply --plan FILE PATH`: the saved plan must be what the config plans. verifyPlan proves
// the live resources a plan touches did not move; this proves the plan's changes are the ones
// the config asks for, so a hand-edited plan (an update re-aimed at another id, an archive
// added, desired values changed) is refused whole. Pure: the config, the live state and the
// saved plan in; what is wrong out.
//
// It plans again from the config and the live state as read now, shaped as the saved plan was
// (its targets, --prune, --resend), and requires every saved change to appear in that plan
// identically. Where fingerprints held, the live inputs of each saved change are those it was
// planned from, so an honest plan always passes; extra changes in the new plan (drift
// elsewhere since) are not the saved plan's business and are left out, as they were reviewed
// out. Protection is re-checked on the saved plan's own archives, whatever led to them.

import type { Diagnostic } from '../model/diagnostic.js';
import { kindOf } from '../model/kinds/index.js';
import type { DesiredState, LiveState, RecordedScope } from '../model/types.js';
import { buildPlan } from '../plan/build-plan.js';
import { compareStates, type Comparison, type Orphan } from '../plan/compare.js';
import { serializeChange } from '../plan/plan-file.js';
import { protectionErrors } from '../plan/protect.js';
import { countManaged } from '../plan/safety.js';
import type { ArchiveChange, Change, Plan } from '../plan/types.js';
import type { StaleItem } from './verify.js';

export interface ConfigCheck {
  ok: boolean;
  /** Saved changes the config does not plan, or plans differently. */
  unplanned: StaleItem[];
  /** Errors planning from the config now (protection among them). */
  errors: Diagnostic[];
  /** countManaged() of the live state read now. */
  managed: number;
  /** The config matched to the live state read now (apply completes the secrets file from it). */
  comparison: Comparison;
}

/**
 * `recreate`: the --recreate addresses given to this apply, confirmed as for the plan.
 * `recorded`: the applied-state record for this API, as the plan was given it.
 */
export function checkAgainstConfig(
  saved: Plan, desired: DesiredState, live: LiveState, o: { recreate?: readonly string[]; recorded?: RecordedScope | undefined } = {},
): ConfigCheck {
  const { recorded } = o;
  const fresh = buildPlan(desired, live, { targets: saved.targets, prune: saved.prune, resend: resentActions(saved), recreate: [...(o.recreate ?? [])], recorded });
  const errors = fresh.diagnostics.filter((d) => d.severity === 'error');
  errors.push(...protectionErrors(compareStates(desired, live, recorded), savedArchives(saved, live)));
  const byKey = new Map(fresh.plan.changes.map((c) => [changeKey(c), c]));
  const unplanned: StaleItem[] = [];
  for (const change of saved.changes) {
    const why = difference(change, byKey.get(changeKey(change)));
    if (why) unplanned.push({ address: change.address, why: `not what the config plans: ${why}` });
  }
  return { ok: errors.length === 0 && unplanned.length === 0, unplanned, errors: dedupe(errors), managed: countManaged(live), comparison: fresh.comparison };
}

/** Which change of the new plan a saved change must equal: same op on the same resource. */
function changeKey(c: Change): string {
  return JSON.stringify([c.op, c.type, c.address, c.id]);
}

function difference(saved: Change, fresh: Change | undefined): string | null {
  if (!fresh) {
    return saved.id === null
      ? `the config plans no ${saved.op} of ${saved.address}`
      : `the config plans no ${saved.op} of ${saved.type} id ${saved.id} at this address`;
  }
  const a = serializeChange(saved);
  const b = serializeChange(fresh);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return keys.length === 0 ? null : `its ${keys.join(', ')} differ from what the config plans now`;
}

/** --resend is recorded per change (`forced`); these are the addresses to plan again with. */
function resentActions(plan: Plan): string[] {
  return plan.changes.filter((c) => c.op !== 'archive' && c.forced === true).map((c) => c.address);
}

/** The saved archives whose live resource was read now, as the orphans protectionErrors checks. */
function savedArchives(saved: Plan, live: LiveState): { change: ArchiveChange; orphan: Orphan }[] {
  const out: { change: ArchiveChange; orphan: Orphan }[] = [];
  for (const change of saved.changes) {
    if (change.op !== 'archive') continue;
    const orphan = orphanOf(change, live);
    if (orphan) out.push({ change, orphan });
  }
  return out;
}

function orphanOf(change: ArchiveChange, live: LiveState): Orphan | null {
  const kind = kindOf(change.type);
  const l = kind.liveIn(live).find((r: { id: string }) => r.id === change.id);
  if (!l) return null;
  if (!kind.parentId) return { type: change.type, address: change.address, live: l } as Orphan;
  return change.parent !== undefined ? ({ type: change.type, address: change.address, parent: change.parent, live: l } as Orphan) : null;
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.code}\u0000${d.address ?? ''}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
