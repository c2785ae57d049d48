// The one seam through which the network enters: read live state, and create / update /
// archive / restore one resource. The planner never sees it; apply and the readers use it,
// and tests can run them against the real reference server. It is the model's, not api/'s:
// the kind modules (kinds/) name each kind's calls through it; api/client.ts implements it.

import type {
  AppSecrets, ResolvedApp, LiveAction, LiveApp, LiveParser, ResolvedParser, ResolvedAction, WorldOperator,
} from './types.js';

export interface ApiClient {
  /** Organization the credentials act for (token claim `organization_id`), or null if unknown. */
  organizationId(): Promise<number | null>;

  listActions(): Promise<LiveAction[]>;
  getAction(id: string): Promise<LiveAction | null>;
  listParsers(actionId: string): Promise<LiveParser[]>;
  getParser(id: string): Promise<LiveParser | null>;
  /** null when the server has no `GET /api/apps` (404/405): callers fall back to pinned ids. */
  listApps(): Promise<LiveApp[] | null>;
  getApp(id: string): Promise<LiveApp | null>;
  listOperators(): Promise<WorldOperator[]>;

  createAction(spec: ResolvedAction): Promise<LiveAction>;
  /**
   * Always sends the steps (the API requires them when the action has any). Resolves with
   * nothing: the spec does not show PATCH's answer; read the action by id if it is needed.
   */
  updateAction(id: string, spec: ResolvedAction): Promise<void>;
  archiveAction(id: string): Promise<void>;
  restoreAction(id: string): Promise<LiveAction>;

  createParser(actionId: string, spec: ResolvedParser): Promise<LiveParser>;
  updateParser(id: string, spec: Partial<ResolvedParser>): Promise<LiveParser>;
  archiveParser(id: string): Promise<void>;
  restoreParser(id: string): Promise<LiveParser>;

  /** Returns the app's secrets; callers hand them to the secrets file and nowhere else. */
  createApp(spec: ResolvedApp): Promise<{ app: LiveApp; secrets: AppSecrets }>;
  /**
   * An existing app and its token and webhook_secret from one answer (spec: App,
   * attributes.token is "returned in app responses"): for an app create whose answer was lost,
   * the secrets file's completion and secrets pull. null when the app is not there (404). Who it
   * is (package_name) is checked before its token is written under a name; like createApp, the
   * secrets go to the secrets file and nowhere else.
   */
  getAppWithSecrets(id: string): Promise<{ app: LiveApp; secrets: AppSecrets } | null>;
  updateApp(id: string, spec: Partial<ResolvedApp>): Promise<LiveApp>;
  archiveApp(id: string): Promise<void>;
  restoreApp(id: string): Promise<LiveApp>;

  /** Requests sent so far (for progress, tests and benchmarks). */
  readonly stats: { requests: number; retries: number };
  close(): Promise<void>;
}
