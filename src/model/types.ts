// The resource kinds shared by every stage of the pipeline:
// config (desired) -> model <- api (live) -> plan -> apply.
// Desired types come from the YAML files; Live types come from the API, already
// canonicalised and with secrets removed (the API client strips them at the boundary).

import type { SourceLoc, Warning } from './diagnostic.js';
import type { ACTION_FIELDS } from './kinds/action-fields.js';
import type { APP_FIELDS } from './kinds/app-fields.js';
import type { ConfigValues, LiveValues, ResolvedValues } from './kinds/fields.js';
import type { PARSER_FIELDS, ParserStatus, TargetType } from './kinds/parser-fields.js';
import type { StepDetails } from './kinds/action-values.js';

export type { SourceLoc };

export { TRANSPORT_TYPES, type TransportType } from './kinds/action-fields.js';
export { PARSER_STATUSES, TARGET_TYPES, type ParserStatus, type TargetType } from './kinds/parser-fields.js';
export { STEP_KINDS, type OperatorRef, type Step, type StepDetails } from './kinds/action-values.js';

export type ResourceType = 'action' | 'parser' | 'app';

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
 * A parser as the config writes it, with its path (config form): its fields (model/kinds/parser-fields.ts)
 * as written. `sender` is as written: a ussd parser's is dropped only by resolveParser.
 */
export interface DesiredParser extends Managed, ConfigValues<typeof PARSER_FIELDS> {
  /** Old category, so a rename is a patch. */
  renamed_from?: string;
}

/**
 * A parser as the API should hold it (resolveParser): a ussd parser has no sender. What a plan's
 * change carries as `desired` and what the client sends (model/kinds/parser.ts ParserBody wraps it).
 * A live parser is this shape plus what the server keeps of its own.
 */
export type ResolvedParser = ResolvedValues<typeof PARSER_FIELDS>;

/** An action as the config writes it, with its path (config form): operators as written. */
export interface DesiredAction extends Managed, ConfigValues<typeof ACTION_FIELDS> {
  renamed_from?: string;
  parsers: DesiredParser[];
  tests: Fixture[];
  /** Whole-session tests (absent when the action has none). */
  sessions?: Session[];
}

/** An app as the config writes it, with its path (config form). */
export interface DesiredApp extends Managed, ConfigValues<typeof APP_FIELDS> {}

/**
 * An app as the API should hold it: its config values without the managing options. What a plan's
 * change carries as `desired` and what the client sends (model/kinds/app.ts AppBody wraps it).
 */
export type ResolvedApp = ResolvedValues<typeof APP_FIELDS>;

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
export type ResolvedAction = ResolvedValues<typeof ACTION_FIELDS>;

// ---- live state (from the API) ----

/** Its fields as echoed: operator names ([name, null] pairs reduced to names), step values only. */
export interface LiveAction extends LiveValues<typeof ACTION_FIELDS> {
  id: string; // public id
  description: string | null;
  organization_id: number;
  archived_at: string | null;
  updated_at: string;
}

/** The resolved parser's shape, plus what the server keeps of its own. */
export interface LiveParser extends LiveValues<typeof PARSER_FIELDS> {
  id: string;
  /** Public id of the owning action (attributes.custom_action_public_id). */
  action_id: string;
  archived_at: string | null;
  updated_at: string;
}

export interface LiveApp extends LiveValues<typeof APP_FIELDS> {
  id: string;
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
