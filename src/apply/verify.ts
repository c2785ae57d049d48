// `apply --plan FILE` carries out a saved plan exactly, so first make sure the world it was
// made against is still the world: re-read only what the plan touches (by id for updates,
// restores and archives; one list per kind for creates) and refuse, naming every stale
// address, when anything moved, when the config moved on, or when the organization differs.

import pLimit from 'p-limit';
import type { ApiClient } from '../api/types.js';
import { fingerprint } from '../model/fingerprint.js';
import type { LiveAction, LiveApp, LiveParser } from '../model/types.js';
import type { Change, CreateChange, Plan } from '../plan/types.js';
import { countManaged } from './safety.js';

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
  warnings: string[];
  /**
   * countManaged() over what was read while checking: all active actions and apps, and the
   * active parsers of the actions the plan's parser changes belong to (for thresholds).
   */
  managedCount: number;
  /** Actions whose parsers were not counted, so the count is below a fresh plan's (for messages). */
  uncountedParsers: boolean;
}

export async function verifyPlan(plan: Plan, client: ApiClient, options: VerifyOptions = {}): Promise<Verification> {
  const problems: string[] = [];
  if (options.configDigest !== undefined && options.configDigest !== plan.config_digest) {
    problems.push('the config changed since the plan was made; run `menuctl plan --out FILE` again');
  }
  // The CLI checks this earlier (src/cli/apply.ts, before any read by id); this check is for
  // library callers of verifyPlan, which get no other guard.
  const org = await client.organizationId();
  if (plan.organization_id !== null && org !== null && org !== plan.organization_id) {
    problems.push(`the plan was made for organization ${plan.organization_id}, but the credentials act for organization ${org}`);
  }
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  const parentIds = new Set<string>();
  const [existing, creates] = await Promise.all([
    Promise.all(plan.changes.filter((c) => c.op !== 'create').map((c) => limit(() => checkExisting(c, client, parentIds)))),
    checkCreates(plan.changes.filter((c): c is CreateChange => c.op === 'create'), client),
  ]);
  for (const c of plan.changes) if (c.type === 'parser' && c.op !== 'archive' && c.action_id !== null) parentIds.add(c.action_id);
  const stale = [...existing.filter((s): s is StaleItem => s !== null), ...creates.stale];
  const parsers = await checkParserCreates(plan, client, limit, parentIds);
  stale.push(...parsers.stale);
  stale.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return {
    ok: problems.length === 0 && stale.length === 0,
    stale,
    problems,
    warnings: creates.warnings,
    managedCount: countManaged({ actions: creates.actions, apps: creates.apps, parsers: parsers.live }),
    uncountedParsers: creates.actions.some((a) => a.archived_at === null && !parentIds.has(a.id)),
  };
}

export function verificationMessage(v: Verification, file: string): string {
  const lines = [`refusing to apply ${file}: it is stale. Nothing was changed.`];
  for (const p of v.problems) lines.push(`  - ${p}`);
  for (const s of v.stale) lines.push(`  - ${s.address}: ${s.why}`);
  lines.push('Make a new plan (`menuctl plan --out FILE`), review it, and apply that.');
  return lines.join('\n');
}

async function checkExisting(change: Exclude<Change, CreateChange>, client: ApiClient, parentIds: Set<string>): Promise<StaleItem | null> {
  const live = await read(change, client, parentIds);
  if (live === null) return { address: change.address, why: `id ${change.id} no longer exists` };
  if (change.fingerprint !== null && live !== change.fingerprint) {
    return { address: change.address, why: 'changed since the plan was made' };
  }
  return null;
}

async function read(change: Exclude<Change, CreateChange>, client: ApiClient, parentIds: Set<string>): Promise<string | null> {
  switch (change.type) {
    case 'action': {
      const a = await client.getAction(change.id);
      return a && fingerprint('action', a);
    }
    case 'parser': {
      const p = await client.getParser(change.id);
      if (p) parentIds.add(p.action_id); // a parser archive names its action only by address
      return p && fingerprint('parser', p);
    }
    case 'app': {
      const a = await client.getApp(change.id);
      return a && fingerprint('app', a);
    }
  }
}

type Limit = ReturnType<typeof pLimit>;

/** An action or app create is stale when a live resource with its identity appeared since the plan. */
async function checkCreates(
  creates: CreateChange[],
  client: ApiClient,
): Promise<{ stale: StaleItem[]; warnings: string[]; actions: LiveAction[]; apps: LiveApp[] }> {
  const stale: StaleItem[] = [];
  const warnings: string[] = [];
  const [actions, apps] = await Promise.all([client.listActions(), client.listApps()]);
  const activeActions = actions.filter((a) => a.archived_at === null);
  const activeApps = (apps ?? []).filter((a) => a.archived_at === null);
  for (const c of creates) {
    if (c.type === 'action') {
      const hit = activeActions.find((a) => a.name === c.desired.name);
      if (hit) stale.push(appeared(c, hit.id));
    } else if (c.type === 'app') {
      const hit = activeApps.find((a) => a.package_name === c.desired.package_name);
      if (hit) stale.push(appeared(c, hit.id));
    }
  }
  const appCreates = creates.filter((c) => c.type === 'app').map((c) => c.address);
  if (apps === null && appCreates.length > 0) {
    // Not a refusal: the server simply cannot tell, and the plan was reviewed when it was made.
    warnings.push(
      `not checked for staleness: ${appCreates.join(', ')} (the server has no GET /api/apps, so an app created ` +
        `since the plan was made cannot be seen); make sure no such app exists before confirming`,
    );
  }
  return { stale, warnings, actions, apps: apps ?? [] };
}

/**
 * Lists the parsers of every action the plan's parser changes belong to, once per action: it
 * checks parser creates for a namesake that appeared, and gives the parsers to count as managed.
 */
async function checkParserCreates(
  plan: Plan,
  client: ApiClient,
  limit: Limit,
  parentIds: Set<string>,
): Promise<{ stale: StaleItem[]; live: LiveParser[] }> {
  const stale: StaleItem[] = [];
  const lists = await Promise.all([...parentIds].map((id) => limit(async () => [id, await client.listParsers(id)] as const)));
  const byAction = new Map(lists);
  for (const c of plan.changes) {
    if (c.op !== 'create' || c.type !== 'parser' || c.action_id === null) continue;
    const hit = byAction.get(c.action_id)?.find((p) => p.archived_at === null && p.category === c.desired.category);
    if (hit) stale.push(appeared(c, hit.id));
  }
  return { stale, live: lists.flatMap(([, list]) => list) };
}

function appeared(c: CreateChange, id: string): StaleItem {
  return { address: c.address, why: `a live resource with this identity appeared (id ${id})` };
}
