// An app create that the secrets file says has happened already. Where the API cannot list apps
// (the spec shows no apps index), only the applied-state record tells menuctl which live app a
// config app is; with the record lost (deleted, never committed, a fresh CI clone) every app
// would be planned as new and created a second time. The secrets file, kept by the same applies,
// still names each app's id: when that id is live with the same package_name, the create is
// refused before anything is sent, with the `id:` pin that adopts the app.

import { readSecretsSection } from '../apply/secrets-file.js';
import type { ApiClient } from '../api/types.js';
import { kindOf } from '../model/kinds/index.js';
import type { Plan } from '../plan/types.js';
import type { RecordDocument } from '../record/record.js';

export interface KnownApp {
  address: string;
  id: string;
  archived: boolean;
}

/**
 * The plan's app creates whose address the secrets file holds with an id that is live (archived
 * or not) with the same package_name. None when the API lists apps: the planner has matched them
 * by package_name already, so a secrets entry for another live app is an old one.
 */
export async function appsKnownToSecretsFile(
  plan: Plan, secretsFile: string | undefined,
  api: { client: ApiClient; appsListed: () => Promise<boolean>; record?: { doc: RecordDocument; key: string }; section?: string },
): Promise<KnownApp[]> {
  const { client, record } = api;
  const creates = plan.changes.flatMap((c) => (c.op === 'create' && kindOf(c.type).hasSecrets ? [c] : []));
  if (secretsFile === undefined || creates.length === 0) return [];
  // Unreadable: apply's own checks of the file say why, before anything is sent.
  const doc = await readSecretsSection(secretsFile, api.section).catch(() => null);
  const candidates = creates.flatMap((c) => {
    const id = doc?.[c.address]?.id;
    return typeof id === 'string' && id !== '' && !otherScopes(record, c.address).has(id) ? [{ change: c, id }] : [];
  });
  if (candidates.length === 0 || (await api.appsListed())) return [];
  const known: KnownApp[] = [];
  for (const { change, id } of candidates) {
    const kind = kindOf(change.type);
    const live = await kind.api.get(client, id);
    if (live !== null && kind.key(live) === kind.key(change.desired)) {
      known.push({ address: change.address, id, archived: live.archived_at !== null });
    }
  }
  return known;
}

/**
 * The ids the record holds for `address` in other scopes (another environment or API). The secrets
 * file is keyed by address alone: one file kept for staging and production holds the id of
 * whichever was applied last, and ids are small sequential numbers on the reference server. An id
 * the record places in another scope says nothing about this API, where the same number may be
 * another app (one made from another checkout, the same package_name): refusing would name it as
 * the secrets file's and tell the user to remove a live app's token.
 */
function otherScopes(record: { doc: RecordDocument; key: string } | undefined, address: string): Set<string> {
  const ids = new Set<string>();
  for (const [key, scope] of record?.doc ?? []) {
    const id = key === record!.key ? null : scope.apps.get(address)?.id;
    if (id) ids.add(id);
  }
  return ids;
}
