// Carries out one change through the client, with the API calls of its kind (model/kinds/).
// Requests are driven by `desired` and the live id only; `fields` explain a change to a reader and never decide what is sent, except that a
// restore patches only when the plan found fields to change or was forced by --resend (spec:
// restore returns the resource as it was archived).

import { ResponseShapeError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import type { AppSecrets, LiveAction, LiveApp, LiveParser } from '../model/types.js';
import type { Change, CreateChange, RestoreChange, UpdateChange } from '../plan/types.js';
import { kindOf, parentOf } from '../model/kinds/index.js';
import { createOnce, type RecoveryPolicy } from './create-once.js';

export interface ExecuteContext {
  client: ApiClient;
  policy: RecoveryPolicy;
  /** The owning action's public id, for parser creates (resolved at run time). */
  parentId: string | null;
  /** SIGINT: a create's recovery stops sending and looking up (create-once.ts). */
  signal?: AbortSignal;
}

export interface Executed {
  id: string | null;
  recovered?: boolean;
  /** Only for app creates; handed to the secrets file and nowhere else. */
  secrets?: AppSecrets;
  /** A recovered app create whose secrets could not be read back: why (never a secret). */
  secretsLost?: string;
}

export async function executeChange(change: Change, ctx: ExecuteContext): Promise<Executed> {
  switch (change.op) {
    case 'create':
      return create(change, ctx);
    case 'update':
      await update(change, change.id, ctx.client);
      return { id: change.id };
    case 'restore':
      await restore(change, ctx.client);
      return { id: change.id };
    case 'archive':
      await archive(change.type, change.id, ctx.client);
      return { id: change.id };
  }
}

async function create(change: CreateChange, ctx: ExecuteContext): Promise<Executed> {
  const { client, policy } = ctx;
  const signal = ctx.signal ? { signal: ctx.signal } : {};
  const kind = kindOf(change.type);
  const parentId = kind.ownedBy === undefined ? null : ownerId(change, ctx);
  const key = kind.key(change.desired);
  let secrets: AppSecrets | undefined;
  // A lost answer is recovered by looking for the resource among the live ones of its kind (a
  // parser: within its action); a kind the API cannot list (apps, on some servers) cannot tell.
  const r = await createOnce<Live>({
    address: change.address,
    policy,
    ...signal,
    create: async () => {
      const made = await kind.api.create(client, change.desired, parentId);
      secrets = made.secrets;
      return made.live;
    },
    lookup: async () => {
      const all: readonly Live[] | null = await kind.api.list(client, parentId);
      if (all === null) return undefined;
      return all.find((l) => l.archived_at === null && kind.key(l) === key) ?? null;
    },
  });
  if (kind.hasSecrets && r.recovered && !secrets) return { id: r.value.id, recovered: true, ...(await readBack(client, r.value.id)) };
  return { id: r.value.id, recovered: r.recovered, ...(secrets ? { secrets } : {}) };
}

type Live = LiveAction | LiveParser | LiveApp;

/** A nested resource's owner's live public id: resolved at run time, else as the plan knew it. */
function ownerId(change: CreateChange, ctx: ExecuteContext): string {
  const id = ctx.parentId ?? ('action_id' in change ? change.action_id : null);
  if (!id) throw new Error(`${change.address}: the public id of ${parentOf(change)} is not known`);
  return id;
}

/**
 * The create's answer, with the secrets, was lost; the API returns them in every app response
 * (spec: App, attributes.token), so read them back. A failure here does not fail the change:
 * the app exists, only its secrets are missing, and the outcome says so.
 */
async function readBack(client: ApiClient, id: string): Promise<Pick<Executed, 'secrets' | 'secretsLost'>> {
  try {
    const got = await client.getAppWithSecrets(id);
    return got ? { secrets: got.secrets } : { secretsLost: `GET /api/apps/${id} found no such app` };
  } catch (err) {
    // A malformed answer's message quotes the start of the body, which here may hold the token.
    if (err instanceof ResponseShapeError) return { secretsLost: `GET /api/apps/${id}: the answer did not carry the app's token` };
    return { secretsLost: err instanceof Error ? err.message : String(err) };
  }
}

/** Sends the whole desired resource (the kind's API call; an action's always with its steps). */
async function update(change: UpdateChange | RestoreChange, id: string, client: ApiClient): Promise<void> {
  await kindOf(change.type).api.update(client, id, change.desired);
}

async function restore(change: RestoreChange, client: ApiClient): Promise<void> {
  await kindOf(change.type).api.restore(client, change.id);
  if (change.fields.length > 0 || change.forced) await update(change, change.id, client);
}

function archive(type: Change['type'], id: string, client: ApiClient): Promise<void> {
  return kindOf(type).api.archive(client, id);
}
