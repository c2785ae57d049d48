// `apply --plan FILE` carries out a saved plan exactly, so first make sure the world it was
// made against is still the world: re-read only what the plan touches (by id for updates,
// restores and archives; one list per kind for creates) and refuse, naming every stale
// address, when anything moved, when the config moved on, or when the organization differs.
// Whether the changes are what the config plans is against-config.ts's question.

import pLimit from 'p-limit';
import type { ApiClient } from '../api/types.js';
import { warning, type Warning } from '../model/diagnostic.js';
import { fingerprint } from '../model/fingerprint.js';
import { ALL_KINDS, kindOf } from '../model/kinds/index.js';
import type { Change, CreateChange, Plan } from '../plan/types.js';

export interface VerifyOptions {
  /** Digest of the config as it is now; compared with the plan's `config_digest` when given. */
  configDigest?: string;
  concurrency?: number;
}

export interface StaleItem {
  address: string;
  why: string;
}

export interface Verification {
  ok: boolean;
  stale: StaleItem[];
  /** Whole-plan problems: config or organization moved on. */
  problems: string[];
  /** What could not be checked (not a refusal): tell the user before they confirm. */
  warnings: Warning[];
}

/**
 * The one place the plan's organization is checked against the credentials'. A plan that names
 * none is refused when the credentials name one: credentials that know their organization made
 * every plan such credentials can apply, so a missing one is an edit that would skip this check.
 */
export function organizationProblem(plan: Pick<Plan, 'organization_id'>, actual: number | null): string | null {
  if (actual === null || actual === plan.organization_id) return null;
  if (plan.organization_id === null) {
    return `the plan names no organization, but the credentials act for organization ${actual}; make the plan with these credentials`;
  }
  return `the plan was made for organization ${plan.organization_id}, but the credentials act for organization ${actual}`;
}

export async function verifyPlan(plan: Plan, client: ApiClient, options: VerifyOptions = {}): Promise<Verification> {
  const problems: string[] = [];
  if (options.configDigest !== undefined && options.configDigest !== plan.config_digest) {
    problems.push('the config changed since the plan was made; run `menuctl plan --out FILE` again');
  }
  // Before any read by id: another organization's resources would only look missing (404).
  const org = organizationProblem(plan, await client.organizationId());
  if (org) return { ok: false, stale: [], problems: [...problems, org], warnings: [] };
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  const parentIds = new Set<string>();
  const [existing, creates] = await Promise.all([
    Promise.all(plan.changes.filter((c) => c.op !== 'create').map((c) => limit(() => checkExisting(c, client, parentIds)))),
    checkCreates(plan.changes.filter((c): c is CreateChange => c.op === 'create'), client),
  ]);
  // A nested resource's change (a parser's) carries its owner's live id when the owner existed at plan time.
  for (const c of plan.changes) if (c.op !== 'archive' && 'action_id' in c && c.action_id !== null) parentIds.add(c.action_id);
  const stale = [...existing.filter((s): s is StaleItem => s !== null), ...creates.stale];
  stale.push(...(await checkParserCreates(plan, client, limit, parentIds)));
  stale.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { ok: problems.length === 0 && stale.length === 0, stale, problems, warnings: creates.warnings };
}

/** `why` heads the list: what the listed items have in common (stale, by default). */
export function verificationMessage(v: Pick<Verification, 'problems' | 'stale'>, file: string, why = v.stale.length > 0 ? 'it is stale' : null): string {
  const lines = [`refusing to apply ${file}${why ? `: ${why}` : ''}. Nothing was changed.`];
  for (const p of v.problems) lines.push(`  - ${p}`);
  for (const s of v.stale) lines.push(`  - ${s.address}: ${s.why}`);
  lines.push('Make a new plan (`menuctl plan --out FILE`), review it, and apply that.');
  return lines.join('\n');
}

async function checkExisting(change: Exclude<Change, CreateChange>, client: ApiClient, parentIds: Set<string>): Promise<StaleItem | null> {
  const live = await read(change, client, parentIds);
  if (live === null) return { address: change.address, why: `id ${change.id} no longer exists` };
  // No fingerprint, no check: such a change is refused, never carried out unchecked.
  if (change.fingerprint === null) return { address: change.address, why: 'carries no fingerprint to check the live resource against' };
  if (live !== change.fingerprint) {
    return { address: change.address, why: 'changed since the plan was made' };
  }
  return null;
}

async function read(change: Exclude<Change, CreateChange>, client: ApiClient, parentIds: Set<string>): Promise<string | null> {
  const kind = kindOf(change.type);
  const live = await kind.api.get(client, change.id);
  if (live === null) return null;
  if (kind.parentId) parentIds.add(kind.parentId(live)); // a parser archive names its action only by address
  return fingerprint(change.type, live);
}

type Limit = ReturnType<typeof pLimit>;

/** An action or app create is stale when a live resource with its identity appeared since the plan. */
async function checkCreates(
  creates: CreateChange[],
  client: ApiClient,
): Promise<{ stale: StaleItem[]; warnings: Warning[] }> {
  const stale: StaleItem[] = [];
  const warnings: Warning[] = [];
  // Nested kinds (parsers) are listed per owner: checkParserCreates.
  const topLevel = ALL_KINDS.filter((k) => k.ownedBy === undefined);
  const lists = new Map(await Promise.all(topLevel.map(async (k) => [k.type, (await k.api.list(client, null)) as { id: string; archived_at: string | null }[] | null] as const)));
  const unchecked: string[] = [];
  for (const c of creates) {
    const kind = kindOf(c.type);
    if (kind.ownedBy !== undefined) continue;
    const list = lists.get(c.type);
    if (list === null) unchecked.push(c.address);
    const hit = list?.find((l) => l.archived_at === null && kind.key(l) === kind.key(c.desired));
    if (hit) stale.push(appeared(c, hit.id));
  }
  // Only a kind the API may not list (apps: mayBeUnlisted) can be unchecked.
  if (unchecked.length > 0) {
    // Not a refusal: the server simply cannot tell, and the plan was reviewed when it was made.
    warnings.push(warning('verify.apps-unchecked',
      `not checked for staleness: ${unchecked.join(', ')} (the server has no GET /api/apps, so an app created ` +
        `since the plan was made cannot be seen); make sure no such app exists before confirming`,
    ));
  }
  return { stale, warnings };
}

/** Lists the parsers of every action the plan's parser changes belong to, once per action: a parser create is stale when a namesake appeared. */
async function checkParserCreates(
  plan: Plan,
  client: ApiClient,
  limit: Limit,
  parentIds: Set<string>,
): Promise<StaleItem[]> {
  const stale: StaleItem[] = [];
  const lists = await Promise.all([...parentIds].map((id) => limit(async () => [id, await client.listParsers(id)] as const)));
  const byAction = new Map(lists);
  for (const c of plan.changes) {
    if (c.op !== 'create' || !('action_id' in c) || c.action_id === null) continue;
    const kind = kindOf(c.type);
    const hit = byAction.get(c.action_id)?.find((p) => p.archived_at === null && kind.key(p) === kind.key(c.desired));
    if (hit) stale.push(appeared(c, hit.id));
  }
  return stale;
}

function appeared(c: CreateChange, id: string): StaleItem {
  return { address: c.address, why: `a live resource with this identity appeared (id ${id})` };
}
