// Deterministic order of changes (octoDNS sorts by change class, decK by dependency level):
//   1. creates, restores and updates, top-down: actions and apps (level 0), then parsers (1);
//   2. then archives, bottom-up: parsers, then actions and apps;
//   within each of those four classes by address, then by live id (two live resources can
//   share an address, e.g. an unmanaged action named like a pinned one).
// This is the order apply works in (src/apply/levels.ts), so the plan reads as it will run.
// Archives come last so nothing is taken away before what replaces it exists.

import type { ResourceType } from '../model/types.js';
import { LEVEL, type Change } from './types.js';

interface Sortable {
  op: string;
  type: ResourceType;
  address: string;
  id: string | null;
}

/** The class rank of a change: the rest by ascending level, then archives by descending level. */
export function rank(c: Pick<Sortable, 'op' | 'type'>): number {
  const maxLevel = Math.max(...Object.values(LEVEL));
  const level = LEVEL[c.type];
  return c.op === 'archive' ? maxLevel + 1 + (maxLevel - level) : level;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function compareChanges(a: Sortable, b: Sortable): number {
  return rank(a) - rank(b) || cmp(a.address, b.address) || cmp(a.id ?? '', b.id ?? '');
}

export function sortChanges(changes: Change[]): Change[] {
  return [...changes].sort(compareChanges);
}
