// A fingerprint of a live resource as the planner saw it. `apply --plan` re-reads the
// resource and refuses a stale plan when the fingerprint moved. Only fields menuctl manages,
// plus archived_at, count (model/kinds.ts lists them per kind): a transactions_count tick must
// not make a plan stale.

import { createHash } from 'node:crypto';
import { kindOf } from './kinds.js';
import type { LiveAction, LiveApp, LiveParser, ResourceType } from './types.js';

export function fingerprint(type: 'action', live: LiveAction): string;
export function fingerprint(type: 'parser', live: LiveParser): string;
export function fingerprint(type: 'app', live: LiveApp): string;
export function fingerprint(type: ResourceType, live: LiveAction | LiveParser | LiveApp): string;
export function fingerprint(type: ResourceType, live: LiveAction | LiveParser | LiveApp): string {
  const fields = kindOf(type).fingerprintFields(live);
  return createHash('sha256').update(JSON.stringify([type, ...fields])).digest('hex').slice(0, 16);
}
