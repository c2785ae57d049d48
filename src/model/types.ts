// The resource kinds shared by every stage of the pipeline:
// config (desired) -> model <- api (live) -> plan -> apply.
// Desired types come from the YAML files; Live types come from the API, already
// canonicalised and with secrets removed (the API client strips them at the boundary).

import type { SourceLoc, Warning } from './diagnostic.js';

export type { SourceLoc };

export const TRANSPORT_TYPES = ['ussd', 'stk', 'push', 'variable_longstring'] as const;
export type TransportType = (typeof TRANSPORT_TYPES)[number];

export const PARSER_STATUSES = ['succeeded', 'failed', 'pending'] as const;
export type ParserStatus = (typeof PARSER_STATUSES)[number];

export const TARGET_TYPES = ['ussd', 'sms'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export type ResourceType = 'action' | 'parser' | 'app';

/**
 * One menu step. The API stores each step as {is_param, convert_val_to_num, value,
 * expected_text?, description} but echoes only `value` (spec: Action.steps).
 */
/** The step kinds, in the order the docs list them. */
export const STEP_KINDS = ['press', 'variable', 'select', 'pin', 'ok'] as const;

export type Step =
  | { kind: 'press'; value: string; expect?: string; description?: string }
  | { kind: 'variable'; name: string; description?: string }
  | { kind: 'select'; name: string; description?: string }
  | { kind: 'pin'; description?: string }
  | { kind: 'ok'; description?: string };

/** A step as the config says it, every detail included (the digest, and the applied-state record). */
export interface StepDetails {
  kind: Step['kind'];
  value?: string;
  name?: string;
  expect?: string | null;
  description: string;
}

/** An operator as written in the config: a world operator id or its exact name. */
export interface OperatorRef {
  ref: number | string;
  loc?: SourceLoc;
}

/** A parser fixture run by `menuctl test`. */
export interface Fixture {
  message: string;
  /** Channel of the message; `sms` when a sender is given, `ussd` otherwise. */
  channel: TargetType;
  sender?: string;
  /** 'none': no parser may match. */
  expect:
    | 'none'
    | { category?: string; status?: ParserStatus; variables?: Record<string, string> };
  loc?: SourceLoc;
}

/** An SMS that arrives after a session, classified by the action's sms parsers. */
export interface SessionSms {
  sender: string;
  message: string;
}

/**
 * A whole USSD session recorded offline, run by `menuctl test` (docs/sessions.md):
 * screens[i] is what the network shows before step i; the screen after the last step is the reply.
 */
export interface Session {
  name: string;
  /** Values for `variable` and `select` steps, as written (`amount: 500` is "500"). */
  variables: Record<string, string>;
  screens: string[];
  sms: SessionSms[];
  expect: Fixture['expect'];
  loc?: SourceLoc;
  /** Where each screen is written, for failures that point at one. */
  screenLocs?: SourceLoc[];
}

/** Options shared by every managed resource. */
export interface Managed {
  /** Pins the resource to a live id. */
  id?: string;
  /** Forbids archiving it. */
  protected?: boolean;
  loc?: SourceLoc;
}

/**
 * A parser as the config writes it, with its path (config form). `sender` is as written: a ussd
 * parser's is dropped only by resolveParser (model/kinds/parser.ts).
 */
export interface DesiredParser extends Managed {
  category: string;
  status: ParserStatus;
  target_type: TargetType; // default ussd
  sender: string | null; // null for ussd
  regex: string;
  user_message: string; // default ''
  /** Old category, so a rename is a patch. */
  renamed_from?: string;
}

/**
 * A parser as the API should hold it (resolveParser): a ussd parser has no sender. What a plan's
 * change carries as `desired` and what the client sends (model/kinds/parser.ts ParserBody wraps it).
 */
export interface ResolvedParser {
  category: string;
  status: ParserStatus;
  target_type: TargetType;
  sender: string | null;
  regex: string;
  user_message: string;
}

/** An action as the config writes it, with its path (config form): operators as written. */
export interface DesiredAction extends Managed {
  name: string;
  root_code: string;
  transport_type: TransportType;
  operators: OperatorRef[];
  steps: Step[];
  renamed_from?: string;
  parsers: DesiredParser[];
  tests: Fixture[];
  /** Whole-session tests (absent when the action has none). */
  sessions?: Session[];
}

/** An app as the config writes it, with its path (config form). */
export interface DesiredApp extends Managed {
  name: string;
  package_name: string;
  webhook_url: string | null;
}

/**
 * An app as the API should hold it: its config values without the managing options. What a plan's
 * change carries as `desired` and what the client sends (model/kinds/app.ts AppBody wraps it).
 */
export interface ResolvedApp {
  name: string;
  package_name: string;
  webhook_url: string | null;
}

export interface DesiredState {
  organization_id?: number;
  /** The environment this state was loaded for (`--env`), when the config defines environments. */
  environment?: string;
  actions: DesiredAction[];
  apps: DesiredApp[];
  /** `ignore:` address patterns of every file: unmanaged live resources menuctl leaves alone (model/ignore.ts). */
  ignore?: string[];
  /** The files the state was merged from, in load order. */
  files: string[];
}

/**
 * An action as the API should hold it, with operators resolved to world operator ids: what a
 * plan's change carries as `desired` and what the client sends (model/kinds/action.ts ActionBody wraps it).
 */
export interface ResolvedAction {
  name: string;
  root_code: string;
  transport_type: TransportType;
  operator_ids: number[];
  steps: Step[];
}

// ---- live state (from the API) ----

export interface LiveAction {
  id: string; // public id
  name: string;
  root_code: string;
  transport_type: TransportType;
  /** Operator names as the API echoes them ([name, null] pairs reduced to names). */
  operators: string[];
  /** Step values only: the API echoes nothing else of a step. */
  steps: string[];
  description: string | null;
  organization_id: number;
  archived_at: string | null;
  updated_at: string;
}

export interface LiveParser {
  id: string;
  /** Public id of the owning action (attributes.custom_action_public_id). */
  action_id: string;
  category: string;
  status: ParserStatus;
  target_type: TargetType;
  sender: string | null;
  regex: string;
  user_message: string;
  archived_at: string | null;
  updated_at: string;
}

export interface LiveApp {
  id: string;
  name: string;
  package_name: string;
  webhook_url: string | null;
  organization_id: number;
  archived_at: string | null;
  updated_at: string;
}

export interface WorldOperator {
  id: number;
  name: string;
  country_alpha2: string;
  hnis: string;
}

export interface LiveState {
  /** The organization the credentials act for (from the token's claims), if known. */
  organization_id: number | null;
  actions: LiveAction[];
  /** Parsers of the actions that were read (see api/read-live.ts for which). */
  parsers: LiveParser[];
  /**
   * Parsers the config pins by id that are not among `parsers` (they belong to an action it does
   * not manage), read one by one so the plan can say whose they are. Absent when none.
   */
  pinned_elsewhere?: LiveParser[];
  /** All apps; only the pinned ones when `apps_listed` is false (a server without `GET /api/apps`). */
  apps: LiveApp[];
  apps_listed: boolean;
  operators: WorldOperator[];
  warnings: Warning[];
}

/** Secrets the API generates for an app. Never printed, logged or planned. */
export interface AppSecrets {
  token: string;
  webhook_secret: string | null;
}

// ---- the applied-state record (src/record/record.ts reads and writes it) ----

/**
 * What was applied to one action. `details: 'unknown'`: adopted (export or import) and never sent
 * by menuctl, so its hidden step details and operator ids are not known (written
 * `"steps": "unknown", "operator_ids": "unknown"`); `steps` and `operator_ids` are then empty and
 * mean nothing. `pending: 'create'`: its create was sent with these details and no answer was
 * recorded (`"id": null`); the live action of that name is the one, with these details.
 */
export interface RecordedAction {
  id: string | null;
  steps: StepDetails[];
  operator_ids: number[];
  details?: 'unknown';
  pending?: 'create';
  /** What became of a pending create's answer, when known: `connection reset`, `time-out`, ... */
  lost?: string;
}

export type RecordedApp = { id: string; pending?: undefined; lost?: undefined } | { id: null; pending: 'create'; lost?: string };

/** What is recorded for one API (one scope), keyed by address. */
export interface ScopeRecord {
  actions: Map<string, RecordedAction>;
  apps: Map<string, RecordedApp>;
}

/** The whole file: every scope it holds (other APIs' lines are kept as they are). */
export type RecordDocument = Map<string, ScopeRecord>;

/**
 * The applied-state record for this API, as the planner and export read it: what menuctl applied
 * that the API does not echo. `file`: the record as messages name it; `scope` null: it has nothing
 * for this API. Passed beside the LiveState (which is only what the API said); undefined when
 * the command read no record.
 */
export interface RecordedScope {
  file: string;
  scope: ScopeRecord | null;
}
