// A representative plan for the golden tests: every op, a long regex, a steps diff, an
// operators set change, a rename, a prune reason, unmanaged resources and warnings.
import { warning } from '../../src/model/diagnostic.js';
import type { Plan } from '../../src/plan/types.js';

export function samplePlan(): Plan {
  return {
    format_version: 1,
    organization_id: 62,
    config_digest: 'c0ffee00c0ffee00',
    targets: [],
    prune: false,
    changes: [
      {
        op: 'create', type: 'action', id: null, address: 'action["Buy bundle"]', fingerprint: null,
        // As the planner writes a create: every field, before null; operators by name.
        fields: [
          { path: 'name', before: null, after: 'Buy bundle' },
          { path: 'root_code', before: null, after: '*544#' },
          { path: 'transport_type', before: null, after: 'ussd' },
          { path: 'operators', before: null, after: ['Safaricom Ltd.'] },
          { path: 'steps', before: null, after: ['2', 'bundle', 'pin', '-'] },
        ],
        desired: {
          name: 'Buy bundle', root_code: '*544#', transport_type: 'ussd', operator_ids: [2172],
          steps: [{ kind: 'press', value: '2', expect: 'Bundles' }, { kind: 'select', name: 'bundle' }, { kind: 'pin' }, { kind: 'ok' }],
        },
      },
      {
        op: 'create', type: 'parser', id: null, address: 'action["Buy bundle"].parser["bought"]', fingerprint: null,
        parent: 'action["Buy bundle"]', action_id: null,
        fields: [], // left to `desired`: the renderer shows it either way
        desired: { category: 'bought', status: 'succeeded', target_type: 'ussd', sender: null, regex: 'You have bought (?<bundle>.+)\\.', user_message: 'Bought {bundle}' },
      },
      {
        op: 'update', type: 'action', id: '1a2b3c4d', address: 'action["Check balance"]', fingerprint: 'f1',
        reasons: [{ code: 'renamed', from: 'Balance' }],
        fields: [
          { path: 'name', before: 'Balance', after: 'Check balance' },
          { path: 'root_code', before: '*144#', after: '*144*1#' },
          { path: 'operators', before: ['Airtel/Zain/Celtel Ltd.', 'Safaricom Ltd.'], after: ['Orange', 'Safaricom Ltd.'] },
          { path: 'steps', before: ['1', 'phone', 'pin', '-'], after: ['1', '3', 'phone', 'pin', '-'] },
        ],
        desired: { name: 'Check balance', root_code: '*144*1#', transport_type: 'ussd', operator_ids: [2172, 2180], steps: [] },
      },
      {
        op: 'update', type: 'parser', id: '901', address: 'action["Check balance"].parser["balance"]', fingerprint: 'f2',
        parent: 'action["Check balance"]', action_id: '1a2b3c4d',
        fields: [
          {
            path: 'regex',
            before: 'Your (?:account|M-PESA) balance (?:is|was) (?<currency>[A-Z]{3}) ?(?<balance>[\\d,.]+)\\. Thank you.*',
            after: 'Your (?:account|M-PESA) balance (?:is|was) (?<currency>[A-Z]{3}) ?(?<balance>[\\d,.]+)\\.? ?(?:Thank you.*)?',
          },
          { path: 'user_message', before: '', after: 'Balance: {currency} {balance}' },
        ],
        desired: { category: 'balance', status: 'succeeded', target_type: 'ussd', sender: null, regex: 'x', user_message: 'Balance: {currency} {balance}' },
      },
      {
        op: 'update', type: 'action', id: '5e6f7a8b', address: 'action["Send money"]', fingerprint: 'f5',
        reasons: [{ code: 'resend' }], forced: true, fields: [],
        desired: { name: 'Send money', root_code: '*334#', transport_type: 'ussd', operator_ids: [2172], steps: [] },
      },
      {
        op: 'restore', type: 'app', id: '7', address: 'app["com.example.agent"]', fingerprint: 'f3',
        fields: [{ path: 'webhook_url', before: null, after: 'https://hooks.example.com/agent' }],
        desired: { name: 'Field agent', package_name: 'com.example.agent', webhook_url: 'https://hooks.example.com/agent' },
      },
      {
        op: 'archive', type: 'parser', id: '905', address: 'action["Check balance"].parser["timeout"]', fingerprint: 'f4',
        parent: 'action["Check balance"]', action_id: '1a2b3c4d', fields: [], reasons: [{ code: 'not-in-config' }],
      },
    ],
    summary: { create: 2, update: 3, archive: 1, restore: 1 },
    unmanaged: [
      { type: 'action', address: 'action["Legacy airtime"]', id: '9f8e7d6c' },
      { type: 'app', address: 'app["com.example.old"]', id: '3' },
    ],
    warnings: [
      warning('plan.hidden-steps', 'action["Check balance"]: the API echoes only step values; a change to a step\'s kind, expect or description alone is invisible (plan with --resend to re-send them)'),
    ],
  };
}

export function emptyPlan(): Plan {
  return {
    format_version: 1, organization_id: 62, config_digest: 'd', targets: [], prune: false,
    changes: [], summary: { create: 0, update: 0, archive: 0, restore: 0 }, unmanaged: [], warnings: [],
  };
}
