// The action kind: a USSD menu path (name, root code, operators, steps). Parsers belong to it.
// Its fields are declared in action-fields.ts (its config form is model/types.ts's DesiredAction,
// what a change sends its ResolvedAction: operators resolved to world operator ids); below: its
// canonical form, request body, answer, plan JSON and API calls, made from them.

import { actionAddress } from '../address.js';
import type { DesiredAction, LiveAction, ResolvedAction } from '../types.js';
import { ACTION_FIELDS, ACTION_TABLE } from './action-fields.js';
import { liveMaker, shaped, type CanonicalValues } from './fields.js';
import type { Kind } from './kind.js';
import { canonicalStep, hasHiddenStepDetails, type StepAttributes } from './steps.js';
import { str, strOrNull, type ApiResource } from './values.js';

export type CanonicalAction = CanonicalValues<typeof ACTION_FIELDS>;

const Resolved = shaped<DesiredAction, number[]>((o, a, ids) => {
  ACTION_TABLE.resolve(a, o);
  o.operator_ids = ids;
  o.steps = a.steps;
});

/** The action as the API should hold it: its operators resolved to world operator ids (`operatorIds`, from the catalog). */
export function resolveAction(a: DesiredAction, operatorIds: number[]): ResolvedAction {
  return new Resolved(a, operatorIds) as unknown as ResolvedAction;
}

export function canonicalLiveAction(live: LiveAction): CanonicalAction {
  return ACTION_TABLE.canonicalLive(live);
}

/** `nameOf` maps a world operator id to the name the API would echo for it. */
export function canonicalResolvedAction(desired: ResolvedAction, nameOf: (id: number) => string): CanonicalAction {
  return ACTION_TABLE.canonical(desired, nameOf);
}

/** An action's request body, create and update alike: its scalar fields, and its operators and steps as the API takes them. */
export interface ActionBody {
  custom_action: Omit<ResolvedAction, 'operator_ids' | 'steps'> & {
    world_operator_ids: string[];
    custom_steps_attributes: Record<string, StepAttributes>;
  };
}

/** Create and update body of an action. Steps are always sent: the API requires them on PATCH. */
export function actionBody(spec: ResolvedAction): ActionBody {
  const body: Record<string, unknown> = {};
  ACTION_TABLE.createBody(spec, body);
  return { custom_action: body as unknown as ActionBody['custom_action'] };
}

const Live = liveMaker(ACTION_TABLE, {
  after: {
    description: (a) => strOrNull(a.description),
    organization_id: (a) => Number(a.organization_id),
    archived_at: (a) => strOrNull(a.archived_at),
    updated_at: (a) => str(a.updated_at),
  },
});

export function fromApiAction(json: ApiResource): LiveAction {
  return new Live(json) as unknown as LiveAction;
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
  fields: ACTION_TABLE,
  paths: ACTION_TABLE.paths,
  reviewValue: (d, path, value) => (path === 'steps' ? d.steps.map(canonicalStep) : value),
  planJson: (d) => ACTION_TABLE.planJson(d),
  api: {
    create: async (c, spec) => ({ live: await c.createAction(spec) }),
    list: (c) => c.listActions(),
    get: (c, id) => c.getAction(id),
    update: (c, id, spec) => c.updateAction(id, spec),
    archive: (c, id) => c.archiveAction(id),
    restore: (c, id) => c.restoreAction(id),
  },
};
