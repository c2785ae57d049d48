// import(address, id, desired, record) (CONTRACT.md "State", Terraform's import): the config's
// ADDRESS is live resource ID from now on. Only reads reach the API; the record gets the id, and,
// for an action, step details marked unknown. What happened comes back as data; the caller words it.

import type { ApiClient } from '../api/types.js';
import { kindOf } from '../model/kinds/index.js';
import type { DesiredAction, DesiredApp, DesiredState, ResourceType } from '../model/types.js';
import { RecordKeeper, scopeOf, type LoadedRecord } from '../state/record-file.js';

/** A kind the record keeps lines of and the config lists (actions, apps): one import can adopt. */
export type Wanted = { type: ResourceType; resource: DesiredAction | DesiredApp };

/** The config's resource at `address`, or null when the config does not declare it. */
export function wantedFor(desired: DesiredState, type: ResourceType, address: string): Wanted | null {
  const kind = kindOf(type);
  const resource = kind.desiredIn?.(desired).find((r) => kind.address(r) === address) as Wanted['resource'] | undefined;
  return resource ? { type, resource } : null;
}

export type ImportResult =
  /** No live resource of that type has the id. */
  | { kind: 'not-found' }
  /** The live resource's identity (`label`: name or package_name) is another one's. */
  | { kind: 'other-resource'; label: string; live: string; wanted: string }
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
  const kind = kindOf(wanted.type);
  const live = await kind.api.get(client, id);
  if (live === null) return { kind: 'not-found' };
  const liveKey = kind.key(live);
  const key = kind.key(wanted.resource);
  const renamedFrom = 'renamed_from' in wanted.resource ? wanted.resource.renamed_from : undefined;
  if (liveKey !== key && liveKey !== renamedFrom) {
    return { kind: 'other-resource', label: kind.keyLabel, live: liveKey, wanted: key };
  }
  const scope = scopeOf(record);
  const table = scope?.[kind.recordedIn!] as ReadonlyMap<string, { id: string | null; pending?: 'create' }> | undefined;
  const line = table?.get(address);
  if (line?.id === id) return { kind: 'already-recorded' };
  if (line?.id) {
    const other = await kind.api.get(client, line.id);
    if (other !== null) return { kind: 'recorded-as-other', id: line.id };
  }
  const holder = [...(table ?? [])].find(([other, l]) => other !== address && l.id === id)?.[0];
  if (holder) return { kind: 'recorded-elsewhere', holder };

  await kind.record!.adopted(new RecordKeeper(record), address, id);
  return { kind: 'imported', wasInFlight: line?.pending === 'create' };
}
