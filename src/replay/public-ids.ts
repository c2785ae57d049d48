// Which action a live public id belongs to, read offline from the applied-state record
// (src/record/record.ts), wherever it lives (`--state`): nothing else in replay knows where ids
// come from.

import { readFile } from 'node:fs/promises';
import { parseAddress } from '../model/address.js';
import { parseRecord, type RecordDocument } from '../record/record.js';

/**
 * Public id -> action name, across every scope the file holds (replay runs offline and cannot
 * tell which API a record came from; a public id names one action wherever it is). An absent
 * file is no error unless it was asked for (`required`).
 */
export async function publicIdsFromRecord(file: string, shown: string, required: boolean): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !required) return new Map();
    throw new Error(`${shown}: cannot read the record (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return publicIdsOf(parseRecord(text, shown));
}

/** Public id -> action name in a record document, every scope (sorted: the same one wins on every run). */
export function publicIdsOf(doc: RecordDocument): Map<string, string> {
  const ids = new Map<string, string>();
  for (const scope of [...doc.keys()].sort()) {
    for (const [address, action] of doc.get(scope)!.actions) {
      const name = parseAddress(address)?.key;
      if (name !== undefined && action.id !== null && !ids.has(action.id)) ids.set(action.id, name);
    }
  }
  return ids;
}
