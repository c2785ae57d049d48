// What apply tells the record (apply/types.ts ApplyJournal), per kind of resource:
//   app:    in flight before its create is sent (the spec cannot list apps), its id once known;
//   action: in flight with the details it sends before its create is sent (killed before the
//           answer, the next plan still knows them), then
//           its step details and operator ids once a create, update or patched restore (the
//           ones that send the steps, apply/execute.ts) was confirmed, kept when archived (the
//           archived action keeps its steps, and a restore is compared with them);
//   parser: nothing (the API echoes every parser field).

import type { ApplyJournal } from './types.js';
import type { Change } from '../plan/types.js';
import type { RecordKeeper } from '../state/record-file.js';

export function recordJournal(keeper: RecordKeeper): ApplyJournal {
  return {
    async beforeAll(changes: readonly Change[]) {
      const creates = changes.flatMap((c) => (c.op === 'create' && c.type === 'action' ? [{ address: c.address, desired: c.desired }] : []));
      if (creates.length > 0) await keeper.actionsPending(creates);
    },
    async beforeCreate(change: Change) {
      if (change.type === 'app') await keeper.appPending(change.address);
      else if (change.type === 'action' && change.op === 'create') await keeper.actionPending(change.address, change.desired);
    },
    async confirmed(change: Change, id: string) {
      if (change.type === 'app') {
        await keeper.appIs(change.address, id);
      } else if (change.type === 'action') {
        // An archive changes no step, so the line stays: a later restore is compared with it (and
        // a restore without a patch sent no steps: what the record says of them still holds).
        if (change.op === 'archive') return;
        if (change.op !== 'restore' || change.fields.length > 0 || change.forced) await keeper.actionApplied(change.address, id, change.desired);
      }
    },
    async failed(change: Change, definite: boolean, lost?: string) {
      if (change.op !== 'create' || change.type === 'parser') return;
      await keeper.createFailed(change.type, change.address, definite ? null : (lost ?? 'the answer was lost'));
    },
  };
}
