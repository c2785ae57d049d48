// The world operator catalog shipped with menuctl (data/world-operators.tsv), read from disk.
// Kept out of model/ so the model stays pure: parsing and resolving live in model/catalog.ts.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCatalog } from '../model/catalog.js';
import type { WorldOperator } from '../model/types.js';

const BUNDLED = fileURLToPath(new URL('../../data/world-operators.tsv', import.meta.url));

let bundled: WorldOperator[] | undefined;
/** The catalog shipped with menuctl, read once per process. */
export function bundledCatalog(): WorldOperator[] {
  bundled ??= parseCatalog(readFileSync(BUNDLED, 'utf8'));
  return bundled;
}
