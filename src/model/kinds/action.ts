// The action kind: a USSD menu path (name, root code, operators, steps). Parsers belong to it.
// Its config form is model/types.ts's DesiredAction, what a change sends its ResolvedAction (operators
// resolved to world operator ids); below: its canonical form, request body, answer, plan JSON and API calls.

import { actionAddress } from '../address.js';
import type { LiveAction, ResolvedAction, TransportType } from '../types.js';
import type { Kind } from './kind.js';
import { canonicalStep, hasHiddenStepDetails, stepAttributes, stepJson, stepValue, type StepAttributes } from './steps.js';
import { byCodeUnit, str, strOrNull, type ApiResource } from './values.js';

export interface CanonicalAction {
  name: string;
  root_code: string;
  transport_type: string;
  /**
   * Operator NAMES, sorted, duplicates kept: the API echoes only names, and names are not
   * unique ("MTN" is several operators), so the only honest comparison is a sorted multiset.
   */
  operators: string[];
  /** Step values in order: the API echoes nothing else of a step (spec: Action.steps). */
  steps: string[];
}

export function canonicalLiveAction(live: LiveAction): CanonicalAction {
  return {
    name: live.name,
    root_code: live.root_code,
    transport_type: live.transport_type,
    operators: [...live.operators].sort(byCodeUnit),
    steps: [...live.steps],
  };
}

/** `nameOf` maps a world operator id to the name the API would echo for it. */
export function canonicalResolvedAction(desired: ResolvedAction, nameOf: (id: number) => string): CanonicalAction {
  return {
    name: desired.name,
    root_code: desired.root_code,
    transport_type: desired.transport_type,
    operators: desired.operator_ids.map(nameOf).sort(byCodeUnit),
    steps: desired.steps.map(stepValue),
  };
}

/** An action's request body, create and update alike. */
export interface ActionBody {
  custom_action: {
    name: string;
    root_code: string;
    transport_type: TransportType;
    world_operator_ids: string[];
    custom_steps_attributes: Record<string, StepAttributes>;
  };
}

/** Create and update body of an action. Steps are always sent: the API requires them on PATCH. */
export function actionBody(spec: ResolvedAction): ActionBody {
  const steps: Record<string, StepAttributes> = {};
  spec.steps.forEach((step, i) => {
    steps[String(i)] = stepAttributes(step, i);
  });
  return {
    custom_action: {
      name: spec.name,
      root_code: spec.root_code,
      transport_type: spec.transport_type,
      world_operator_ids: spec.operator_ids.map(String),
      custom_steps_attributes: steps,
    },
  };
}

export function fromApiAction(json: ApiResource): LiveAction {
  const a = json.attributes;
  const operators = (a.operators as unknown[]).map((pair) => (Array.isArray(pair) ? str(pair[0]) : str(pair)));
  return {
    id: String(json.id),
    name: str(a.name),
    root_code: str(a.root_code),
    transport_type: a.transport_type as TransportType,
    operators,
    steps: (a.steps as unknown[]).map(str),
    description: strOrNull(a.description),
    organization_id: Number(a.organization_id),
    archived_at: strOrNull(a.archived_at),
    updated_at: str(a.updated_at),
  };
}

export const action: Kind<LiveAction, ResolvedAction> = {
  type: 'action',
  level: 0,
  keyLabel: 'name',
  key: (r) => r.name,
  address: (spec) => actionAddress(spec.name),
  addressOf: (key) => actionAddress(key),
  recordedIn: 'actions',
  // In flight with the details its create sends (killed before the answer, the next plan still
  // knows them), then its step details and operator ids once a change that sends them was
  // confirmed. An archive changes no step, so the line stays: a later restore is compared with
  // it (and a restore without a patch sent no steps: what the record says of them still holds).
  record: {
    beforeAll: (w, creates) => w.actionsPending(creates),
    beforeCreate: (w, address, desired) => w.actionPending(address, desired),
    confirmed: async (w, address, id, desired, sentWhole) => {
      if (sentWhole) await w.actionApplied(address, id, desired!);
    },
    adopted: (w, address, id) => w.actionIs(address, id, 'unknown'),
  },
  hiddenDetails: {
    has: (spec) => spec.steps.some(hasHiddenStepDetails),
    stated: (spec) => spec.steps.some((s) => hasHiddenStepDetails(s) && !(s.kind === 'variable' && !s.description)),
  },
  desiredIn: (d) => d.actions,
  liveIn: (s) => s.actions,
  canonicalLive: (a) => canonicalLiveAction(a),
  canonical: (spec, nameOf) => canonicalResolvedAction(spec, nameOf),
  paths: ['name', 'root_code', 'transport_type', 'operators', 'steps'],
  reviewValue: (d, path, value) => (path === 'steps' ? d.steps.map(canonicalStep) : value),
  planJson: (d) => ({ name: d.name, root_code: d.root_code, transport_type: d.transport_type, operator_ids: d.operator_ids, steps: d.steps.map(stepJson) }),
  api: {
    create: async (c, spec) => ({ live: await c.createAction(spec) }),
    list: (c) => c.listActions(),
    get: (c, id) => c.getAction(id),
    update: (c, id, spec) => c.updateAction(id, spec),
    archive: (c, id) => c.archiveAction(id),
    restore: (c, id) => c.restoreAction(id),
  },
};
