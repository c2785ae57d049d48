// Which config action a recorded transaction belongs to (docs/replay.md "Matching"): its public id,
// through an `id:` pin in the config or the applied-state record, else its name. Pure.

import type { DesiredAction, DesiredState } from '../model/types.js';
import type { ReplayTransaction } from './transaction.js';

export interface ActionIndex {
  find(t: Pick<ReplayTransaction, 'actionId' | 'actionName'>): DesiredAction | null;
}

/** `recorded`: public id -> action name, from the applied-state record (public-ids.ts). */
export function indexActions(state: DesiredState, recorded: ReadonlyMap<string, string>): ActionIndex {
  const byName = new Map(state.actions.map((a) => [a.name, a]));
  const byId = new Map<string, DesiredAction>();
  for (const [id, name] of recorded) {
    const action = byName.get(name);
    if (action) byId.set(id, action);
  }
  // A pin is what the user wrote: it wins over the record.
  for (const a of state.actions) if (a.id !== undefined) byId.set(a.id, a);
  return {
    find: (t) => (t.actionId !== null ? byId.get(t.actionId) : undefined) ?? (t.actionName !== null ? byName.get(t.actionName) : undefined) ?? null,
  };
}
