// Which changes wait on which. A parser needs its action's public id: from the plan when the
// action existed at plan time, or from this run's create of it. A parser whose action failed
// to be created or restored is skipped (it would be created on nothing, or on an archived
// action). An action or app archive waits for the archives of its parsers: archiving the
// action while one of its parsers could not be archived would leave that parser behind.

import type { Change } from '../plan/types.js';
import type { Outcome } from './types.js';

/** Outcomes so far, by address. */
export type Ledger = Map<string, Outcome>;

export type Block = { skip: true; reason: string } | { skip: false; parentId: string | null };

export class Dependencies {
  private readonly childArchives = new Map<string, string[]>();

  constructor(changes: readonly Change[]) {
    for (const c of changes) {
      if (c.op === 'archive' && c.type === 'parser' && c.parent !== undefined) {
        const list = this.childArchives.get(c.parent) ?? [];
        list.push(c.address);
        this.childArchives.set(c.parent, list);
      }
    }
  }

  check(change: Change, ledger: Ledger): Block {
    if (change.op !== 'archive' && change.type === 'parser') return parentOf(change.parent, change.action_id, ledger);
    if (change.op === 'archive' && change.type !== 'parser') {
      for (const child of this.childArchives.get(change.address) ?? []) {
        const o = ledger.get(child);
        if (o && o.status !== 'applied') return { skip: true, reason: `${child} ${pastTense(o)}` };
      }
    }
    return { skip: false, parentId: null };
  }
}

function parentOf(parent: string, planned: string | null, ledger: Ledger): Block {
  const o = ledger.get(parent);
  const critical = o !== undefined && (o.op === 'create' || o.op === 'restore');
  if (critical && o.status !== 'applied') return { skip: true, reason: `${parent} ${pastTense(o)}` };
  const id = critical && o.op === 'create' ? o.id : planned;
  if (id === null) return { skip: true, reason: `${parent} has no live id` };
  return { skip: false, parentId: id };
}

function pastTense(o: Outcome): string {
  return o.status === 'failed' ? `failed to ${o.op}` : `was skipped (${o.reason ?? 'unknown'})`;
}
