// Conversions between the model and the API's JSON, in both directions. Pure: no I/O.
// Request bodies follow the spec's Create/Update sections (every step field a string);
// responses are reduced to the Live* types with secrets removed at this boundary, so
// nothing downstream of the client can leak an app token or webhook secret.

import type {
  ResolvedAction, AppSecrets, AppSpec, LiveAction, LiveApp, LiveParser, ParserSpec, ParserStatus, Step,
  TargetType, TransportType, WorldOperator,
} from './types.js';

/** One entry of `custom_steps_attributes` (spec: Step input object). */
export interface StepAttributes {
  order: string;
  is_param: 'true' | 'false';
  convert_val_to_num: 'true' | 'false';
  value: string;
  expected_text?: string;
  description: string;
}

export interface ActionBody {
  custom_action: {
    name: string;
    root_code: string;
    transport_type: TransportType;
    world_operator_ids: string[];
    custom_steps_attributes: Record<string, StepAttributes>;
  };
}

/** The value the API stores and echoes in `attributes.steps` for a step. */
export function stepValue(step: Step): string {
  switch (step.kind) {
    case 'press':
      return step.value;
    case 'variable':
    case 'select':
      return step.name;
    case 'pin':
      return 'pin';
    case 'ok':
      return '-';
  }
}

// Step kinds are told apart only by this flag pair (spec: "Step kinds, distinguished by
// field combination").
const FLAGS: Record<Step['kind'], Pick<StepAttributes, 'is_param' | 'convert_val_to_num'>> = {
  press: { is_param: 'false', convert_val_to_num: 'false' },
  variable: { is_param: 'true', convert_val_to_num: 'false' },
  select: { is_param: 'true', convert_val_to_num: 'true' },
  pin: { is_param: 'false', convert_val_to_num: 'false' },
  ok: { is_param: 'false', convert_val_to_num: 'false' },
};

function stepAttributes(step: Step, index: number): StepAttributes {
  const attrs: StepAttributes = {
    order: String(index),
    ...FLAGS[step.kind],
    value: stepValue(step),
    description: step.description ?? '',
  };
  if (step.kind === 'press' && step.expect !== undefined) attrs.expected_text = step.expect;
  return attrs;
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

type ParserFields = Partial<ParserSpec> & { action_id?: string };

/**
 * Create body of a parser. `target_type` and `sender` are sent only for sms parsers: the
 * spec's create body does not list them and a parser created without them is ussd/null,
 * so a ussd parser is created with exactly the documented fields.
 */
export function parserBody(actionPublicId: string, spec: ParserSpec): { parser: ParserFields } {
  const parser: ParserFields = {
    action_id: actionPublicId,
    status: spec.status,
    category: spec.category,
    regex: spec.regex,
    user_message: spec.user_message,
  };
  if (spec.target_type !== 'ussd' || spec.sender !== null) {
    parser.target_type = spec.target_type;
    parser.sender = spec.sender;
  }
  return { parser };
}

/** Patch body: exactly the given fields (a `sender: null` is sent, to clear it). */
export function parserPatchBody(partial: Partial<ParserSpec>): { parser: ParserFields } {
  return { parser: pickDefined(partial) };
}

export function appBody(spec: AppSpec): { app: Partial<AppSpec> } {
  const app: Partial<AppSpec> = { name: spec.name, package_name: spec.package_name };
  if (spec.webhook_url !== null) app.webhook_url = spec.webhook_url;
  return { app };
}

export function appPatchBody(partial: Partial<AppSpec>): { app: Partial<AppSpec> } {
  return { app: pickDefined(partial) };
}

function pickDefined<T extends object>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

// ---- responses -> live model (shapes already checked against schemas/api/*.json) ----

interface ApiResource {
  id: string | number;
  attributes: Record<string, unknown>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

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

export function fromApiParser(json: ApiResource): LiveParser {
  const a = json.attributes;
  const sender = strOrNull(a.sender);
  return {
    id: String(json.id),
    action_id: str(a.custom_action_public_id),
    category: str(a.category),
    // Kept as sent even when outside our enum (the spec does not show the full set): the
    // planner then sees a difference instead of the client refusing the whole state.
    status: a.status as ParserStatus,
    target_type: (a.target_type ?? 'ussd') as TargetType,
    // "Null or empty for ussd parsers": one canonical form.
    sender: sender === '' ? null : sender,
    regex: str(a.regex),
    user_message: str(a.user_message),
    archived_at: strOrNull(a.archived_at),
    updated_at: str(a.updated_at),
  };
}

/** The app without its secrets (`token`, `webhook_secret` are dropped here). */
export function fromApiApp(json: ApiResource): LiveApp {
  const a = json.attributes;
  return {
    id: String(json.id),
    name: str(a.name),
    package_name: str(a.package_name),
    webhook_url: strOrNull(a.webhook_url),
    organization_id: Number(a.organization_id),
    archived_at: strOrNull(a.archived_at),
    updated_at: str(a.updated_at),
  };
}

/** The one place secrets are read (create responses, and getAppSecrets after a lost create answer). */
export function appSecrets(json: ApiResource): AppSecrets {
  const a = json.attributes;
  return { token: str(a.token), webhook_secret: strOrNull(a.webhook_secret) };
}

export function fromApiOperator(json: ApiResource): WorldOperator {
  const a = json.attributes;
  return { id: Number(json.id), name: str(a.name), country_alpha2: str(a.country_alpha2), hnis: str(a.hnis) };
}
