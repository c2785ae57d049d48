// A Plan seen by a reader: per change its symbol, verb, address, id, notes and field views.
// Text and markdown lay this out differently; what is shown is decided once, here.

import { kindOf } from '../model/kinds/index.js';
import { reasonText } from '../plan/reasons.js';
import type { Change, ChangeOp, ChangeReason, Plan, PlanSummary } from '../plan/types.js';
import { inert } from '../text/inert.js';
import { changeView, valueView, type FieldView } from './plan-values.js';

export const SYMBOL: Record<ChangeOp, string> = { create: '+', update: '~', archive: '-', restore: '↺' };

export interface ChangeView {
  op: ChangeOp;
  symbol: string;
  address: string;
  id: string | null;
  notes: string[];
  fields: FieldView[];
}

export function viewChange(change: Change, width: number): ChangeView {
  return {
    op: change.op,
    symbol: SYMBOL[change.op],
    // Names (in the address), ids and reasons come from a config, a plan file or the API.
    address: inert(change.address),
    id: change.id === null ? null : inert(change.id),
    notes: notesOf(change).map(inert),
    fields: fieldsOf(change, width),
  };
}

// The planner's terse archive reasons, spelled out for a reviewer.
const EXPLAIN: Partial<Record<ChangeReason['code'], string>> = {
  'not-in-config': 'not in config: the configuration owns its action\'s parsers',
  'removed-from-config': 'removed from the configuration: menuctl created or imported it, so it is archived (`menuctl state rm ADDRESS` to let it be)',
  prune: 'prune: not in the configuration, archived because of --prune',
};

function notesOf(change: Change): string[] {
  const notes: string[] = [];
  if (change.reasons) notes.push(change.reasons.map((r) => EXPLAIN[r.code] ?? reasonText([r])).join('; '));
  if (change.op === 'restore' && change.fields.length > 0) notes.push('archived live: restored, then patched');
  else if (change.op === 'restore') notes.push('archived live: restored as it is');
  if (change.op === 'update' && change.fields.length === 0) {
    notes.push('no field the API shows differs: the resource is sent again as configured');
  }
  return notes;
}

function fieldsOf(change: Change, width: number): FieldView[] {
  switch (change.op) {
    case 'archive':
      return [];
    case 'create': {
      // The planner may list a create's fields or leave them to `desired`; show the values either way.
      const shown = change.fields.length > 0
        ? change.fields.map((f) => valueView(f.path, createdValue(change, f.path, f.after)))
        : Object.entries(change.desired).map(([k, v]) => valueView(k, createdValue(change, k, v)));
      return shown.filter((v): v is FieldView => v !== null);
    }
    case 'update':
    case 'restore':
      return change.fields.map((f) => changeView(f, { width }));
  }
}

/**
 * A created action's steps as the config writes them (`press 1 (expect "My account")`,
 * `variable phone`, `pin`): the fields hold only what the API echoes, the values, and a reviewer
 * cannot tell `variable: phone` from `select: phone` by them. The JSON plan keeps the fields as
 * they are.
 */
function createdValue(change: Change & { op: 'create' }, path: string, value: unknown): unknown {
  const kind = kindOf(change.type);
  return kind.reviewValue ? kind.reviewValue(change.desired, path, value) : value;
}

/**
 * The unmanaged resources a reader still has to decide about: those this plan archives (--prune)
 * are already listed under "archive", and listing them twice reads as two different resources.
 * The JSON plan keeps `unmanaged` whole: it is data that scripts read, and its shape is the contract.
 */
export function unmanagedToShow(plan: Plan): Plan['unmanaged'] {
  const archived = new Set(plan.changes.filter((c) => c.op === 'archive' && c.id !== null).map((c) => `${c.type}\0${c.id}`));
  return plan.unmanaged.filter((u) => !archived.has(`${u.type}\0${u.id}`));
}

export function changeCount(summary: PlanSummary): number {
  return summary.create + summary.update + summary.archive + summary.restore;
}

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  if (changeCount(s) === 0) return 'No changes. The live API matches the configuration.';
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.archive} to archive, ${s.restore} to restore.`;
}

/**
 * What Plan.safety means for apply, for a reviewer: each archive `protected:` forbids, then that
 * the thresholds make apply refuse, or that --force acknowledged the archives. Empty when apply
 * would carry the plan out.
 */
export function safetyNotes(plan: Plan): { refuse: boolean; text: string }[] {
  const s = plan.safety;
  if (!s) return [];
  const notes = s.protected.map((p) => ({
    refuse: true,
    text: `apply will refuse: ${p.address} (id ${p.id}) is protected by ${p.protected_by} and this plan archives it`,
  }));
  if (s.refusal !== null) notes.push({ refuse: true, text: s.refusal });
  else if (s.exceeded) {
    notes.push({
      refuse: false,
      text: `--force acknowledged: apply will archive ${s.archives} of ${s.managed} managed resources (${s.percent}%), ` +
        `over the limits (more than ${s.max_archive} and more than ${s.max_archive_percent}%)`,
    });
  }
  return notes.map((n) => ({ ...n, text: inert(n.text) }));
}
