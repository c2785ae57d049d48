// A fingerprint of a live resource as the planner saw it. `apply --plan` re-reads the
// resource and refuses a stale plan when the fingerprint moved. It hashes the canonical form
// the planner compares (model/canonical.ts, via model/kinds/), plus the id, the owner's id
// and archived or not: a transactions_count tick, or a change the planner would not see
// either ('' vs null), must not make a plan stale.

import { createHash } from 'node:crypto';
import { kindOf } from './kinds/index.js';
import type { LiveAction, LiveApp, LiveParser, ResourceType } from './types.js';

export function fingerprint(type: 'action', live: LiveAction): string;
export function fingerprint(type: 'parser', live: LiveParser): string;
export function fingerprint(type: 'app', live: LiveApp): string;
export function fingerprint(type: ResourceType, live: LiveAction | LiveParser | LiveApp): string;
export function fingerprint(type: ResourceType, live: LiveAction | LiveParser | LiveApp): string {
  const kind = kindOf(type);
  const covered = [type, live.id, kind.parentId?.(live) ?? null, kind.canonicalLive(live), live.archived_at !== null];
  return createHash('sha256').update(JSON.stringify(covered)).digest('hex').slice(0, 16);
}
