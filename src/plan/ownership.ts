// Ownership (CONTRACT.md "Ownership"): what menuctl created or imported, it manages. The record
// (src/record/) holds the live id of each managed action and app; one gone from the config is
// archived. Anything else live that the config lacks is left alone unless --prune.

import { kindOf } from '../model/kinds/index.js';
import type { RecordedScope } from '../model/types.js';
import type { Comparison, Orphan } from './compare.js';
import type { ChangeReason } from './types.js';

/**
 * Why an orphan is archived, or null when it is left alone (CONTRACT.md "Ownership"): a parser
 * of a config action always; an action or app menuctl manages (the record holds it) because it
 * was removed from the config; any other only with --prune.
 */
export function archiveReason(orphan: Orphan, owned: ReadonlySet<Orphan>, prune: boolean): ChangeReason | null {
  if (kindOf(orphan.type).ownedBy !== undefined) return { code: 'not-in-config' };
  if (owned.has(orphan)) return { code: 'removed-from-config' };
  return prune ? { code: 'prune' } : null;
}

/**
 * The orphan actions and apps menuctl manages: the record holds the live id under the address
 * the live resource still has. A line whose id now names another resource (renamed outside
 * menuctl, or an edited record) proves nothing: that one is left alone.
 */
export function managedOrphans(cmp: Comparison, recorded: RecordedScope | undefined): Set<Orphan> {
  const scope = recorded?.scope;
  const out = new Set<Orphan>();
  if (!scope) return out;
  for (const o of cmp.orphans) {
    const table = kindOf(o.type).recordedIn;
    if (table === undefined) continue;
    const line = scope[table].get(o.address);
    if (line !== undefined && line.id === o.live.id) out.add(o);
  }
  return out;
}
