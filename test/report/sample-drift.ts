// A representative drift report: every class, a scalar change, a long regex, a steps change.
import { warning } from '../../src/model/diagnostic.js';
import type { Drift } from '../../src/plan/drift-types.js';

export function sampleDrift(): Drift {
  return {
    format_version: 1,
    in_sync: false,
    drift: [
      {
        class: 'changed', type: 'action', address: 'action["Check balance"]', id: '1a2b3c4d',
        fields: [
          { path: 'root_code', expected: '*144#', live: '*145#' },
          { path: 'steps', expected: ['1', 'phone', 'pin', '-'], live: ['1', 'pin', '-'] },
        ],
      },
      {
        class: 'changed', type: 'parser', address: 'action["Check balance"].parser["balance"]', id: '901',
        fields: [
          {
            path: 'regex',
            expected: 'Your (?:account|M-PESA) balance (?:is|was) (?<currency>[A-Z]{3}) ?(?<balance>[\\d,.]+)\\. Thank you.*',
            live: 'Your (?:account|M-PESA) balance (?:is|was) (?<currency>[A-Z]{3}) (?<balance>[\\d,.]+)\\. Thank you.*',
          },
        ],
      },
      { class: 'archived', type: 'parser', address: 'action["Check balance"].parser["wrong-pin"]', id: '902', fields: [] },
      { class: 'missing', type: 'app', address: 'app["com.example.agent"]', id: null, fields: [] },
      { class: 'unmanaged', type: 'action', address: 'action["Made in the UI"]', id: '9f8e7d6c', fields: [] },
    ],
    warnings: [warning('live.apps-not-listed', 'The server has no GET /api/apps: only pinned apps were compared.')],
  };
}

export function inSyncDrift(): Drift {
  return { format_version: 1, in_sync: true, drift: [], warnings: [] };
}
