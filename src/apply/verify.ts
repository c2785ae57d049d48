// `apply --plan FILE` carries out a saved plan exactly, so first make sure the world it was
// made against is still the world: re-read only what the plan touches (by id for updates,
// restores and archives; one list per kind for creates) and refuse, naming every stale
// address, when anything moved, when the config moved on, or when the organization differs.

import pLimit from 'p-limit';
import type { ApiClient } from '../api/types.js';
import { fingerprint } from '../model/fingerprint.js';
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
  /** Active actions and apps seen while checking, plus the parsers the plan touches (for thresholds). */
  managedCount: number;
}

export async function verifyPlan(plan: Plan, client: ApiClient, options: VerifyOptions = {}): Promise<Verification> {
  const problems: string[] = [];
  if (options.configDigest !== undefined && options.configDigest !== plan.config_digest) {
    problems.push('the config changed since the plan was made; run `menuctl plan --out FILE` again');
  }
  const org = await client.organizationId();
  if (plan.organization_id !== null && org !== null && org !== plan.organization_id) {
    problems.push(`the plan was made for organization ${plan.organization_id}, but the credentials act for organization ${org}`);
  }
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  const [existing, creates] = await Promise.all([
    Promise.all(plan.changes.filter((c) => c.op !== 'create').map((c) => limit(() => checkExisting(c, client)))),
    checkCreates(plan.changes.filter((c): c is CreateChange => c.op === 'create'), client, limit),
  ]);
  const stale = [...existing.filter((s): s is StaleItem => s !== null), ...creates.stale];
  const parsersTouched = plan.changes.filter((c) => c.type === 'parser' && c.id !== null).length;
  return {
    ok: problems.length === 0 && stale.length === 0,
    stale,
    problems,
    managedCount: creates.activeTop + parsersTouched,
  };
}

export function verificationMessage(v: Verification, file: string): string {
  const lines = [`refusing to apply ${file}: it is stale. Nothing was changed.`];
  for (const p of v.problems) lines.push(`  - ${p}`);
  for (const s of v.stale) lines.push(`  - ${s.address}: ${s.why}`);
  lines.push('Make a new plan (`menuctl plan --out FILE`), review it, and apply that.');
  return lines.join('\n');
}

async function checkExisting(change: Exclude<Change, CreateChange>, client: ApiClient): Promise<StaleItem | null> {
  const live = await read(change, client);
  if (live === null) return { address: change.address, why: `id ${change.id} no longer exists` };
  if (change.fingerprint !== null && live !== change.fingerprint) {
    return { address: change.address, why: 'changed since the plan was made' };
  }
  return null;
}

async function read(change: Exclude<Change, CreateChange>, client: ApiClient): Promise<string | null> {
  switch (change.type) {
    case 'action': {
      const a = await client.getAction(change.id);
      return a && fingerprint('action', a);
    }
    case 'parser': {
      const p = await client.getParser(change.id);
      return p && fingerprint('parser', p);
    }
    case 'app': {
      const a = await client.getApp(change.id);
      return a && fingerprint('app', a);
    }
  }
}

type Limit = ReturnType<typeof pLimit>;

/** A create is stale when a live resource with its identity appeared since the plan. */
async function checkCreates(
  creates: CreateChange[],
  client: ApiClient,
  limit: Limit,
): Promise<{ stale: StaleItem[]; activeTop: number }> {
  const stale: StaleItem[] = [];
  const appeared = (c: CreateChange, id: string) => stale.push({ address: c.address, why: `a live resource with this identity appeared (id ${id})` });
  const [actions, apps] = await Promise.all([client.listActions(), client.listApps()]);
  const activeActions = actions.filter((a) => a.archived_at === null);
  const activeApps = (apps ?? []).filter((a) => a.archived_at === null);
  for (const c of creates) {
    if (c.type === 'action') {
      const hit = activeActions.find((a) => a.name === c.desired.name);
      if (hit) appeared(c, hit.id);
    } else if (c.type === 'app') {
      const hit = activeApps.find((a) => a.package_name === c.desired.package_name);
      if (hit) appeared(c, hit.id);
    }
  }
  // Parsers of actions that exist: one list per action, however many parsers it gains.
  const byAction = new Map<string, CreateChange[]>();
  for (const c of creates) {
    if (c.type === 'parser' && c.action_id !== null) byAction.set(c.action_id, [...(byAction.get(c.action_id) ?? []), c]);
  }
  await Promise.all(
    [...byAction].map(([actionId, list]) =>
      limit(async () => {
        const live = (await client.listParsers(actionId)).filter((p) => p.archived_at === null);
        for (const c of list) {
          if (c.type !== 'parser') continue;
          const hit = live.find((p) => p.category === c.desired.category);
          if (hit) appeared(c, hit.id);
        }
      }),
    ),
  );
  stale.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { stale, activeTop: activeActions.length + activeApps.length };
}
