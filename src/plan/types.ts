// The plan is data (Terraform's plan-as-a-value): built whole before the first write,
// saved with `plan --out`, carried out by apply. Apply touches only what the plan lists.
// `fields` explain a change to a reader; apply is driven by `desired`, never by `fields`.

import { KINDS } from '../model/kinds.js';
import type { ActionDesired, AppSpec, ParserSpec, ResourceType } from '../model/types.js';

export interface FieldChange {
  /** e.g. `regex`, `operators`, `steps[2]`, `webhook_url` */
  path: string;
  before: unknown;
  after: unknown;
}

// Defined in model/ (model/canonical.ts and model/payload.ts need it); re-exported for plan readers.
export type { ActionDesired };

export type ParserDesired = ParserSpec;
export type AppDesired = AppSpec;

interface Base {
  address: string;
  /** Sha-256 of the canonical live resource the change was planned against; null for creates. */
  fingerprint: string | null;
  fields: FieldChange[];
  /** Why the change is there, when not obvious (e.g. "renamed from \"Old\"", "forced: --resend"). */
  reason?: string;
  /** --resend: send the whole desired resource even though no visible field differs. */
  forced?: true;
}

interface ActionPart {
  type: 'action';
  desired: ActionDesired;
}
interface ParserPart {
  type: 'parser';
  desired: ParserDesired;
  /** Address of the owning action: apply resolves its live public id at run time. */
  parent: string;
  /** The owning action's live public id when it exists at plan time; null when it is created by this plan. */
  action_id: string | null;
}
interface AppPart {
  type: 'app';
  desired: AppDesired;
}
type Typed = ActionPart | ParserPart | AppPart;

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
  /** Why it is archived: `not in config` (owned parser), `prune`. */
  reason: string;
};

export type Change = CreateChange | UpdateChange | RestoreChange | ArchiveChange;
export type ChangeOp = Change['op'];

export interface PlanSummary {
  create: number;
  update: number;
  archive: number;
  restore: number;
}

export interface Plan {
  format_version: 1;
  /** Organization the plan was made against (from the credentials), if known. */
  organization_id: number | null;
  /** Sha-256 of the canonical desired state, so `apply --plan` can tell the config moved on. */
  config_digest: string;
  /** `--target` addresses the plan was limited to; empty means everything. */
  targets: string[];
  prune: boolean;
  changes: Change[];
  summary: PlanSummary;
  /** Live resources not in the config (not archived unless --prune). */
  unmanaged: { type: ResourceType; address: string; id: string }[];
  warnings: string[];
}

/** Dependency levels (decK's order.go, model/kinds.ts): creates/restores/updates top-down, archives bottom-up. */
export const LEVEL: Record<ResourceType, number> = { action: KINDS.action.level, app: KINDS.app.level, parser: KINDS.parser.level };
