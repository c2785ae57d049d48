// export(live, record): the whole live organization as config files, and the record adopting
// what they declare. The caller writes the files and says what was done.

import type { ApiClient } from '../api/types.js';
import { readLiveState } from '../api/read-live.js';
import { exportConfig, type ExportResult } from '../export/export-config.js';
import { recordedAppIds } from '../record/record.js';
import { recordedScope, RecordKeeper, scopeOf, type LoadedRecord } from '../state/record-file.js';

/** Reads every active action's parsers (the export is the whole organization) and exports it. */
export async function exportLive(
  client: ApiClient, record: LoadedRecord,
  o: { layout: 'file' | 'dir'; schemaPath: string; concurrency: number; signal?: AbortSignal },
): Promise<ExportResult> {
  const scope = scopeOf(record);
  const live = await readLiveState(client, {
    wantParsers: (a) => a.archived_at === null, concurrency: o.concurrency, ...(o.signal ? { signal: o.signal } : {}),
    recordedAppIds: recordedAppIds(scope),
  });
  return exportConfig(live, { layout: o.layout, schemaPath: o.schemaPath, recorded: recordedScope(record) });
}

/**
 * The exported resources become managed (CONTRACT.md "Ownership"): an action's line with its
 * step details unknown, an app's id. A line that already holds the same live id is kept (it
 * knows more). Returns how many lines were added.
 */
export async function adoptExported(record: LoadedRecord, exported: ExportResult['exported']): Promise<number> {
  const keeper = new RecordKeeper(record);
  const scope = scopeOf(record);
  let n = 0;
  for (const { address, id } of exported.actions) {
    if (scope?.actions.get(address)?.id === id) continue;
    await keeper.actionIs(address, id, 'unknown');
    n++;
  }
  for (const { address, id } of exported.apps) {
    if (scope?.apps.get(address)?.id === id) continue;
    await keeper.appIs(address, id);
    n++;
  }
  return n;
}
