// Carries out one change through the client, with the API calls of its kind (model/kinds/).
// Requests are driven by `desired` and the live id only; `fields` explain a change to a reader and never decide what is sent, except that a
// restore patches only when the plan found fields to change or was forced by --resend (spec:
// restore returns the resource as it was archived).

import { ResponseShapeError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import type { AppSecrets, LiveAction, LiveApp, LiveParser } from '../model/types.js';
import type { Change, CreateChange, RestoreChange, UpdateChange } from '../plan/types.js';
import { KINDS, kindOf } from '../model/kinds/index.js';
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
  switch (change.type) {
    case 'action': {
      const key = KINDS.action.key(change.desired);
      const r = await createOnce<LiveAction>({
        address: change.address,
        policy,
        ...signal,
        create: () => client.createAction(change.desired),
        lookup: async () => (await client.listActions()).find((a) => a.archived_at === null && KINDS.action.key(a) === key) ?? null,
      });
      return { id: r.value.id, recovered: r.recovered };
    }
    case 'parser': {
      const actionId = ctx.parentId ?? change.action_id;
      if (!actionId) throw new Error(`${change.address}: the public id of ${change.parent} is not known`);
      const key = KINDS.parser.key(change.desired);
      const r = await createOnce<LiveParser>({
        address: change.address,
        policy,
        ...signal,
        create: () => client.createParser(actionId, change.desired),
        lookup: async () =>
          (await client.listParsers(actionId)).find((p) => p.archived_at === null && KINDS.parser.key(p) === key) ?? null,
      });
      return { id: r.value.id, recovered: r.recovered };
    }
    case 'app': {
      const key = KINDS.app.key(change.desired);
      let secrets: AppSecrets | undefined;
      const r = await createOnce<LiveApp>({
        address: change.address,
        policy,
        ...signal,
        create: async () => {
          const made = await client.createApp(change.desired);
          secrets = made.secrets;
          return made.app;
        },
        lookup: async () => {
          const apps = await client.listApps();
          if (apps === null) return undefined;
          return apps.find((a) => a.archived_at === null && KINDS.app.key(a) === key) ?? null;
        },
      });
      if (r.recovered && !secrets) return { id: r.value.id, recovered: true, ...(await readBack(client, r.value.id)) };
      return { id: r.value.id, recovered: r.recovered, ...(secrets ? { secrets } : {}) };
    }
  }
}

/**
 * The create's answer, with the secrets, was lost; the API returns them in every app response
 * (spec: App, attributes.token), so read them back. A failure here does not fail the change:
 * the app exists, only its secrets are missing, and the outcome says so.
 */
async function readBack(client: ApiClient, id: string): Promise<Pick<Executed, 'secrets' | 'secretsLost'>> {
  try {
    const secrets = await client.getAppSecrets(id);
    return secrets ? { secrets } : { secretsLost: `GET /api/apps/${id} found no such app` };
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
