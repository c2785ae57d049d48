// The plan as JSON: the contract's shape first (format_version, changes, summary), then what
// `apply --plan` needs (ids, fingerprints, desired state, parents). Key order is fixed here, not
// left to whoever built the objects, so saved plans and golden files are byte-stable.

import type { Change, Plan } from '../plan/types.js';
import { stableJson } from './stable-json.js';

export function renderPlanJson(plan: Plan): string {
  return stableJson({
    format_version: plan.format_version,
    changes: plan.changes.map(changeJson),
    summary: {
      create: plan.summary.create,
      update: plan.summary.update,
      archive: plan.summary.archive,
      restore: plan.summary.restore,
    },
    organization_id: plan.organization_id,
    config_digest: plan.config_digest,
    targets: plan.targets,
    prune: plan.prune,
    unmanaged: plan.unmanaged.map((u) => ({ type: u.type, address: u.address, id: u.id })),
    warnings: plan.warnings,
  });
}

function changeJson(change: Change): Record<string, unknown> {
  const out: Record<string, unknown> = {
    op: change.op,
    type: change.type,
    address: change.address,
    id: change.id,
    fields: change.fields.map((f) => ({ path: f.path, before: f.before ?? null, after: f.after ?? null })),
  };
  if (change.reason !== undefined) out.reason = change.reason;
  if ('forced' in change && change.forced) out.forced = true;
  out.fingerprint = change.fingerprint;
  if ('parent' in change && change.parent !== undefined) out.parent = change.parent;
  if ('action_id' in change) out.action_id = change.action_id;
  if ('desired' in change) out.desired = change.desired;
  return out;
}
