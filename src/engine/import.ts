// import(address, id, desired, record) (CONTRACT.md "State", Terraform's import): the config's
// ADDRESS is live resource ID from now on. Only reads reach the API; the record gets the id, and,
// for an action, step details marked unknown. What happened comes back as data; the caller words it.

import type { ApiClient } from '../api/types.js';
import { actionAddress, appAddress } from '../model/address.js';
import type { DesiredAction, DesiredApp, DesiredState } from '../model/types.js';
import { RecordKeeper, scopeOf, type LoadedRecord } from '../state/record-file.js';

export type ImportKind = 'action' | 'app';

export type Wanted = { type: 'action'; resource: DesiredAction } | { type: 'app'; resource: DesiredApp };

/** The config's resource at `address`, or null when the config does not declare it. */
export function wantedFor(desired: DesiredState, type: ImportKind, address: string): Wanted | null {
  if (type === 'action') {
    const resource = desired.actions.find((a) => actionAddress(a.name) === address);
    return resource ? { type, resource } : null;
  }
  const resource = desired.apps.find((a) => appAddress(a.package_name) === address);
  return resource ? { type, resource } : null;
}

export type ImportResult =
  /** No live resource of that type has the id. */
  | { kind: 'not-found' }
  /** The live resource's identity (`label`: name or package_name) is another one's. */
  | { kind: 'other-resource'; label: 'name' | 'package_name'; live: string; wanted: string }
  /** The record already holds the address as this id: nothing to do. */
  | { kind: 'already-recorded' }
  /** The record holds the address as another id, which exists. */
  | { kind: 'recorded-as-other'; id: string }
  /** The record holds this id under another address. */
  | { kind: 'recorded-elsewhere'; holder: string }
  /** Recorded; `wasInFlight`: the record had the address's create in flight. */
  | { kind: 'imported'; wasInFlight: boolean };

/** Checks that live `id` is the config's `wanted` and free in the record, then records it. */
export async function importResource(address: string, id: string, wanted: Wanted, o: { client: ApiClient; record: LoadedRecord }): Promise<ImportResult> {
  const { client, record } = o;
  const live = wanted.type === 'action' ? await client.getAction(id) : await client.getApp(id);
  if (live === null) return { kind: 'not-found' };
  const liveKey = 'name' in live && wanted.type === 'action' ? (live as { name: string }).name : (live as { package_name: string }).package_name;
  const key = wanted.type === 'action' ? wanted.resource.name : wanted.resource.package_name;
  const renamedFrom = 'renamed_from' in wanted.resource ? wanted.resource.renamed_from : undefined;
  if (liveKey !== key && liveKey !== renamedFrom) {
    return { kind: 'other-resource', label: wanted.type === 'action' ? 'name' : 'package_name', live: liveKey, wanted: key };
  }
  const scope = scopeOf(record);
  const line = wanted.type === 'action' ? scope?.actions.get(address) : scope?.apps.get(address);
  if (line?.id === id) return { kind: 'already-recorded' };
  if (line?.id) {
    const other = wanted.type === 'action' ? await client.getAction(line.id) : await client.getApp(line.id);
    if (other !== null) return { kind: 'recorded-as-other', id: line.id };
  }
  const table = wanted.type === 'action' ? scope?.actions : scope?.apps;
  const holder = [...(table ?? [])].find(([other, l]) => other !== address && l.id === id)?.[0];
  if (holder) return { kind: 'recorded-elsewhere', holder };

  const keeper = new RecordKeeper(record);
  if (wanted.type === 'action') await keeper.actionIs(address, id, 'unknown');
  else await keeper.appIs(address, id);
  return { kind: 'imported', wasInFlight: line?.pending === 'create' };
}
