// The plan is data (Terraform's plan-as-a-value): built whole before the first write,
// saved with `plan --out`, carried out by apply. Apply touches only what the plan lists.
// `fields` explain a change to a reader; apply is driven by `desired`, never by `fields`.

import type { Warning } from '../model/diagnostic.js';
import { KINDS } from '../model/kinds/index.js';
import type { ResolvedAction, ResolvedApp, ResolvedParser, ResourceType } from '../model/types.js';

export interface FieldChange {
  /** e.g. `regex`, `operators`, `steps[2]`, `webhook_url` */
  path: string;
  /** The live value (null for a create). Drift names it `live` (plan/drift-types.ts). */
  before: unknown;
  /** The config's value. Drift names it `expected`. */
  after: unknown;
}

// Defined in model/ (model/canonical.ts and model/payload.ts need it); re-exported for plan readers.
export type { ResolvedAction };


/** Why a change is there when not obvious (Terraform's ActionReason); worded by plan/reasons.ts. */
export type ChangeReason =
  | { code: 'renamed'; from: string } // the live key differs (renamed_from:, or a pinned id)
  | { code: 'resend' } // --resend: the steps are sent although no visible field differs
  | { code: 'not-in-config' } // a parser the config's action owns but no longer lists
  | { code: 'removed-from-config' } // an action or app menuctl created or imported, gone from the config
  | { code: 'prune' }; // --prune: a live action or app not in the config that menuctl never managed

interface Base {
  address: string;
  /** Sha-256 of the canonical live resource the change was planned against; null for creates. */
  fingerprint: string | null;
  fields: FieldChange[];
  /** Why the change is there, when not obvious; absent or non-empty. */
  reasons?: ChangeReason[];
  /** --resend: send the whole desired resource even though no visible field differs. */
  forced?: true;
}

interface ActionPart {
  type: 'action';
  desired: ResolvedAction;
}
interface ParserPart {
  type: 'parser';
  desired: ResolvedParser;
  /** Address of the owning action: apply resolves its live public id at run time. */
  parent: string;
  /** The owning action's live public id when it exists at plan time; null when it is created by this plan. */
  action_id: string | null;
}
interface AppPart {
  type: 'app';
  desired: ResolvedApp;
}
export type Typed = ActionPart | ParserPart | AppPart;

export type CreateChange = Base & Typed & { op: 'create'; id: null };
export type UpdateChange = Base & Typed & { op: 'update'; id: string };
/** Restore, then patch `fields` when non-empty. */
export type RestoreChange = Base & Typed & { op: 'restore'; id: string };
export type ArchiveChange = Base & {
  op: 'archive';
  id: string;
  type: ResourceType;
  /** Owning action's address for parsers. */
  parent?: string;
  /** Owning action's live public id for parsers: an address may name two live actions (a pin and a pruned namesake). */
  action_id?: string;
  /** Why it is archived: `not-in-config` (an owned parser), `removed-from-config` (a managed action or app) or `prune`. */
  reasons: [ChangeReason];
};

export type Change = CreateChange | UpdateChange | RestoreChange | ArchiveChange;
export type ChangeOp = Change['op'];

export interface PlanSummary {
  create: number;
  update: number;
  archive: number;
  restore: number;
}

/**
 * The archive thresholds as evaluated when the plan was made (plan/safety.ts), so `plan` shows
 * what apply will refuse and `apply --plan` judges the same numbers a fresh apply would.
 */
export interface PlanSafety {
  archives: number;
  /** countManaged() of the live state the plan was made against: the percentage's denominator. */
  managed: number;
  /** archives / managed, in percent, rounded to one decimal (for readers; the check uses the counts). */
  percent: number;
  max_archive: number;
  max_archive_percent: number;
  /** Over both thresholds. */
  exceeded: boolean;
  /** `plan --force`: the archives were acknowledged when the plan was made; `apply --plan` honours it. */
  force: boolean;
  /** "apply will refuse: ..." when exceeded and not forced; otherwise null. */
  refusal: string | null;
  /** Archives that `protected:` forbids, whatever --force says: `plan` fails and saves nothing. */
  protected: { address: string; id: string; protected_by: string }[];
}

export interface Plan {
  format_version: 1;
  /** Organization the plan was made against (from the credentials), if known. */
  organization_id: number | null;
  /** The environment (`--env`) it was made for; absent for a config without environments. */
  environment?: string;
  /** Sha-256 of the canonical desired state, so `apply --plan` can tell the config moved on. */
  config_digest: string;
  /** `--target` addresses the plan was limited to; empty means everything. */
  targets: string[];
  prune: boolean;
  /** Absent in plans saved before menuctl recorded it, and in plans built without thresholds. */
  safety?: PlanSafety;
  changes: Change[];
  summary: PlanSummary;
  /** Live resources not in the config (not archived unless --prune). */
  unmanaged: { type: ResourceType; address: string; id: string }[];
  /** JSON lists their messages as `warnings` and the whole as `diagnostics` (plan/plan-file.ts). */
  warnings: Warning[];
}

/** Does the change send the whole desired resource? (apply/execute.ts: a create, an update, a restore with a patch or forced) */
export const sendsWhole = (c: Change): boolean => c.op === 'create' || c.op === 'update' || (c.op === 'restore' && (c.fields.length > 0 || c.forced === true));

/** Dependency levels (decK's order.go, model/kinds/): creates/restores/updates top-down, archives bottom-up. */
export const LEVEL: Record<ResourceType, number> = { action: KINDS.action.level, app: KINDS.app.level, parser: KINDS.parser.level };
