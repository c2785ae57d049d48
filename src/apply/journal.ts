// What apply tells the record (apply/types.ts ApplyJournal): each kind says what through its
// `record` hooks (model/kinds/: an app is in flight before its create and recorded by id; an
// action is in flight with the details it sends, then recorded with them); a kind without them
// (a parser: the API echoes every parser field) is told nothing.

import type { ApplyJournal } from './types.js';
import { kindOf } from '../model/kinds/index.js';
import type { ResourceType } from '../model/types.js';
import { sendsWhole, type Change } from '../plan/types.js';
import type { RecordKeeper } from '../state/record-file.js';

export function recordJournal(keeper: RecordKeeper): ApplyJournal {
  return {
    async beforeAll(changes: readonly Change[]) {
      const creates = new Map<ResourceType, { address: string; desired: unknown }[]>();
      for (const c of changes) {
        if (c.op !== 'create' || kindOf(c.type).record?.beforeAll === undefined) continue;
        creates.set(c.type, [...(creates.get(c.type) ?? []), { address: c.address, desired: c.desired }]);
      }
      for (const [type, list] of creates) await kindOf(type).record!.beforeAll!(keeper, list);
    },
    async beforeCreate(change: Change) {
      if (change.op === 'create') await kindOf(change.type).record?.beforeCreate(keeper, change.address, change.desired);
    },
    async confirmed(change: Change, id: string) {
      const desired = change.op === 'archive' ? undefined : change.desired;
      await kindOf(change.type).record?.confirmed(keeper, change.address, id, desired, sendsWhole(change));
    },
    async failed(change: Change, definite: boolean, lost?: string) {
      const table = kindOf(change.type).recordedIn;
      if (change.op !== 'create' || table === undefined) return;
      await keeper.createFailed(table, change.address, definite ? null : (lost ?? 'the answer was lost'));
    },
  };
}
