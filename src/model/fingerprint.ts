// A fingerprint of a live resource as the planner saw it. `apply --plan` re-reads the
// resource and refuses a stale plan when the fingerprint moved. Only fields menuctl manages,
// plus archived_at, count: a transactions_count tick must not make a plan stale.

import { createHash } from 'node:crypto';
import type { LiveAction, LiveApp, LiveParser } from './types.js';

export function fingerprint(type: 'action', live: LiveAction): string;
export function fingerprint(type: 'parser', live: LiveParser): string;
export function fingerprint(type: 'app', live: LiveApp): string;
export function fingerprint(type: 'action' | 'parser' | 'app', live: LiveAction | LiveParser | LiveApp): string {
  let fields: unknown[];
  switch (type) {
    case 'action': {
      const a = live as LiveAction;
      fields = [a.id, a.name, a.root_code, a.transport_type, [...a.operators].sort(), a.steps, a.archived_at !== null];
      break;
    }
    case 'parser': {
      const p = live as LiveParser;
      fields = [p.id, p.action_id, p.category, p.status, p.target_type, p.sender, p.regex, p.user_message, p.archived_at !== null];
      break;
    }
    case 'app': {
      const a = live as LiveApp;
      fields = [a.id, a.name, a.package_name, a.webhook_url, a.archived_at !== null];
      break;
    }
  }
  return createHash('sha256').update(JSON.stringify([type, ...fields])).digest('hex').slice(0, 16);
}
