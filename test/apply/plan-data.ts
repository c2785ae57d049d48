// Plans written by hand as data, for engine unit tests that must not depend on the planner.
import { actionAddress, appAddress, parserAddress } from '../../src/model/address.js';
import type { ResolvedParser } from '../../src/model/types.js';
import type { ResolvedAction, Change, Plan } from '../../src/plan/types.js';

export function actionDesired(name: string): ResolvedAction {
  return { name, root_code: '*144#', transport_type: 'ussd', operator_ids: [1], steps: [{ kind: 'press', value: '1' }] };
}

export function parserDesired(category: string): ResolvedParser {
  return { category, status: 'succeeded', target_type: 'ussd', sender: null, regex: `${category}.*`, user_message: '' };
}

export const createAction = (name: string): Change => ({
  op: 'create', type: 'action', id: null, address: actionAddress(name), fingerprint: null, fields: [], desired: actionDesired(name),
});

export const createParser = (action: string, category: string, actionId: string | null = null): Change => ({
  op: 'create', type: 'parser', id: null, address: parserAddress(action, category), fingerprint: null, fields: [],
  desired: parserDesired(category), parent: actionAddress(action), action_id: actionId,
});

export const createApp = (pkg: string): Change => ({
  op: 'create', type: 'app', id: null, address: appAddress(pkg), fingerprint: null, fields: [],
  desired: { name: pkg, package_name: pkg, webhook_url: 'https://hooks.example/x' },
});

export const archive = (type: 'action' | 'parser' | 'app', address: string, id: string, parent?: string): Change => ({
  op: 'archive', type, id, address, fingerprint: 'f', fields: [], reasons: [{ code: 'prune' }], ...(parent ? { parent } : {}),
});

export function plan(changes: Change[]): Plan {
  const count = (op: Change['op']) => changes.filter((c) => c.op === op).length;
  return {
    format_version: 1, organization_id: 1, config_digest: 'd', targets: [], prune: false, changes,
    summary: { create: count('create'), update: count('update'), archive: count('archive'), restore: count('restore') },
    unmanaged: [], warnings: [],
  };
}
