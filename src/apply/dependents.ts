// Which changes wait on which. A parser needs its action's public id: from the plan when the
// action existed at plan time, or from this run's create of it. A parser whose action failed
// to be created or restored is skipped (it would be created on nothing, or on an archived
// action). An action or app archive waits for the archives of its parsers: archiving the
// action while one of its parsers could not be archived would leave that parser behind.
//
// Bookkeeping is by change index and live id, never by address alone: two changes can share an
// address (a pinned action["X"] plus an unmanaged live action also named "X" archived by --prune,
// src/plan/order.ts), and one's failure must not block or unblock the other.

import { ALL_KINDS, kindOf } from '../model/kinds/index.js';
import type { Change } from '../plan/types.js';
import type { Blocker, ChangeOutcome, OutcomeReason } from './types.js';

/** Outcomes so far, by change index. */
export type Ledger = Map<number, ChangeOutcome>;

export type Block = { skip: true; reason: OutcomeReason } | { skip: false; parentId: string | null };

/** Kinds that own nested ones (actions own parsers): model/kinds/ `ownedBy`. */
const OWNERS = new Set(ALL_KINDS.flatMap((k) => (k.ownedBy === undefined ? [] : [k.ownedBy])));

export class Dependencies {
  /** Parser archives by their action's live id (`id:…`), or by its address (`address:…`) when no id is known. */
  private readonly childArchives = new Map<string, number[]>();
  /** The create or restore of each action address (at most one per address: names are unique in a config). */
  private readonly parentWrites = new Map<string, number>();

  constructor(changes: readonly Change[]) {
    const liveIdOf = new Map<string, string>();
    changes.forEach((c, i) => {
      if (!OWNERS.has(c.type)) return;
      if (c.op === 'archive') return;
      if (c.id !== null) liveIdOf.set(c.address, c.id);
      if (c.op === 'create' || c.op === 'restore') this.parentWrites.set(c.address, i);
    });
    changes.forEach((c, i) => {
      if (c.op !== 'archive' || kindOf(c.type).ownedBy === undefined || c.parent === undefined) return;
      const key = parentKey(c, liveIdOf);
      this.childArchives.set(key, [...(this.childArchives.get(key) ?? []), i]);
    });
  }

  check(change: Change, ledger: Ledger): Block {
    const nested = kindOf(change.type).ownedBy !== undefined;
    if (change.op !== 'archive' && nested && 'parent' in change) {
      return parentOf(change.parent, change.action_id, this.parentWrites.get(change.parent), ledger);
    }
    if (change.op === 'archive' && !nested) {
      for (const child of this.childrenOf(change)) {
        const o = ledger.get(child);
        if (o && o.status !== 'applied') return { skip: true, reason: { code: 'blocked', by: o.address, blocker: blocker(o) } };
      }
    }
    return { skip: false, parentId: null };
  }

  private childrenOf(archive: Change & { op: 'archive' }): number[] {
    const byId = this.childArchives.get(`id:${archive.id}`) ?? [];
    // Without the parent's live id the address decides. If another live action shares it, this
    // may wait on that one's parsers: keeping an action is the safe side of the mistake.
    const byAddress = this.childArchives.get(`address:${archive.address}`) ?? [];
    return [...byId, ...byAddress];
  }
}

/**
 * The live id of a parser archive's action. The plan's archive change names only the action's
 * address, so the id comes from the action's own change in the plan (an update or restore carries
 * it) or from an `action_id` on the change when the planner provides one.
 */
function parentKey(c: Change & { op: 'archive' }, liveIdOf: Map<string, string>): string {
  const carried = (c as { action_id?: unknown }).action_id;
  if (typeof carried === 'string') return `id:${carried}`;
  const known = liveIdOf.get(c.parent!);
  return known !== undefined ? `id:${known}` : `address:${c.parent!}`;
}

function parentOf(parent: string, planned: string | null, writeIndex: number | undefined, ledger: Ledger): Block {
  const o = writeIndex === undefined ? undefined : ledger.get(writeIndex);
  if (o && o.status !== 'applied') return { skip: true, reason: { code: 'blocked', by: parent, blocker: blocker(o) } };
  const id = o && o.op === 'create' ? o.id : planned;
  if (id === null) return { skip: true, reason: { code: 'no-parent-id', by: parent } };
  return { skip: false, parentId: id };
}

/** `o` is failed or skipped. */
function blocker(o: ChangeOutcome): Blocker {
  return o.status === 'failed' ? { status: 'failed', op: o.op } : { status: 'skipped', reason: o.reason };
}
