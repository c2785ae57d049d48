// Rows -> the spec's resource objects (spec, "Resources and their fields"): exact type names,
// field names and relationship shapes.

import type { WorldOperator } from '../model/types.js';
import { secondsIso } from './fields.js';
import type { ActionRow } from './store-actions.js';
import type { AppRow } from './store-apps.js';
import type { ParserRow } from './store-parsers.js';
import type { StoredStep } from './validate-action.js';

const org = (id: number) => ({ data: { id: String(id), type: 'organization' } });

export function actionResource(row: ActionRow, catalog: ReadonlyMap<number, WorldOperator>) {
  const operatorIds = JSON.parse(row.operator_ids) as number[];
  const steps = JSON.parse(row.steps) as StoredStep[];
  return {
    id: row.public_id,
    type: 'custom_action',
    attributes: {
      public_id: row.public_id,
      name: row.name,
      description: row.description,
      root_code: row.root_code,
      transport_type: row.transport_type,
      organization_id: row.organization_id,
      created_at: secondsIso(row.created_at),
      updated_at: secondsIso(row.updated_at),
      archived_at: secondsIso(row.archived_at),
      transactions_count: row.transactions_count,
      // The second element is null in every response the spec shows; its meaning is not shown.
      operators: operatorIds.map((id) => [catalog.get(id)?.name ?? '', null]),
      steps: steps.map((s) => s.value),
    },
    relationships: { organization: org(row.organization_id) },
  };
}

export function parserResource(row: ParserRow) {
  return {
    id: String(row.id),
    type: 'custom_parser',
    attributes: {
      id: row.id,
      status: row.status,
      category: row.category,
      target_type: row.target_type,
      sender: row.sender,
      regex: row.regex,
      user_message: row.user_message,
      created_at: secondsIso(row.created_at),
      updated_at: secondsIso(row.updated_at),
      archived_at: secondsIso(row.archived_at),
      custom_action_public_id: row.public_id,
      transactions_count: row.transactions_count,
    },
    // The spec: this id is NOT the action's public id; it is the internal numeric id.
    relationships: { custom_action: { data: { id: String(row.action_id), type: 'custom_action' } } },
  };
}

export function appResource(row: AppRow) {
  return {
    id: String(row.id),
    type: 'app',
    attributes: {
      id: row.id,
      icon: row.icon,
      name: row.name,
      package_name: row.package_name,
      token: row.token,
      webhook_url: row.webhook_url,
      webhook_secret: row.webhook_secret,
      organization_id: row.organization_id,
      created_at: secondsIso(row.created_at),
      updated_at: secondsIso(row.updated_at),
      archived_at: secondsIso(row.archived_at),
      transactions_count: row.transactions_count,
      is_tester: row.is_tester === 1,
      apk_url: row.apk_url,
    },
    relationships: { organization: org(row.organization_id) },
  };
}

export function operatorResource(op: WorldOperator) {
  return {
    id: String(op.id),
    type: 'world_operator',
    attributes: { name: op.name, country_alpha2: op.country_alpha2, hnis: op.hnis },
  };
}
