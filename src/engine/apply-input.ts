// What apply carries out, from a plan made now or a saved one checked (saved-plan.ts): the plan,
// the record, and which live apps and actions the config's are.

import { kindOf } from '../model/kinds/index.js';
import type { LiveApp } from '../model/types.js';
import type { ApiClient } from '../api/types.js';
import type { ManagedApp } from '../apply/complete-secrets.js';
import type { Comparison } from '../plan/compare.js';
import type { Plan } from '../plan/types.js';
import type { Planned } from './plan.js';
import type { LoadedRecord } from '../state/record-file.js';

export interface ApplyInput {
  plan: Plan;
  /** With `--plan FILE PATH`: the smaller of the plan's recorded managed count and the count now. */
  managed?: number;
  record: LoadedRecord;
  /** Apps of the config matched to live ones (a saved plan knows none): their secrets and ids. */
  apps: ManagedApp[];
  /** Actions of the config matched to live ones: a create left in flight is resolved to its id. */
  actions?: { address: string; id: string }[];
  /** Whether the API lists apps: known from the live read, else asked once (GET /api/apps). */
  appsListed: () => Promise<boolean>;
}

/** Asks the API whether it lists apps the first time it is wanted, once. */
export function askedOnce(client: ApiClient): () => Promise<boolean> {
  let listed: Promise<boolean> | undefined;
  return () => (listed ??= client.listApps().then((apps) => apps !== null));
}

/** The matched resources whose in-flight create the record keeps with the hidden details it sent (actions): engine/after-apply.ts. */
export function matchedActions(cmp: Comparison): { address: string; id: string }[] {
  return cmp.pairs.flatMap((p) => (kindOf(p.type).hiddenDetails !== undefined && p.live !== null ? [{ address: p.address, id: p.live.id }] : []));
}

export function managedApps(cmp: Comparison): ManagedApp[] {
  // The kinds with secrets (apps): the secrets file holds theirs.
  return cmp.pairs.flatMap((p) =>
    kindOf(p.type).hasSecrets && p.live !== null ? [{ address: p.address, id: p.live.id, webhook: ((p.live as LiveApp).webhook_url ?? '') !== '' }] : [],
  );
}

/** What apply carries out of a plan made now: the matched apps and actions, and whether the API listed apps. */
export function applyInputOf(planned: Pick<Planned, 'plan' | 'comparison' | 'live'>, record: LoadedRecord): ApplyInput {
  // The answer, not `planned`: a closure over it kept the comparison and the live state (every
  // pair and live resource) for the whole apply.
  const listed = planned.live.apps_listed;
  return { plan: planned.plan, record, apps: managedApps(planned.comparison), actions: matchedActions(planned.comparison), appsListed: async () => listed };
}
