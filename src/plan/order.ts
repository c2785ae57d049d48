// Deterministic order of changes (octoDNS sorts by change class, decK by dependency level):
//   1. archives, bottom-up: parsers (level 1) before actions and apps (level 0);
//   2. then creates, restores and updates, top-down: actions and apps before parsers;
//   within each of those classes by address, then by live id (two live parsers can share
//   an address when both are archived as "not in config").
// Archives go first so a name or category freed by an archive is free before anything
// is created or renamed onto it.

import type { ResourceType } from '../model/types.js';
import { LEVEL, type Change } from './types.js';

interface Sortable {
  op: string;
  type: ResourceType;
  address: string;
  id: string | null;
}

/** The class rank of a change: archives by descending level, then the rest by ascending level. */
export function rank(c: Pick<Sortable, 'op' | 'type'>): number {
  const maxLevel = Math.max(...Object.values(LEVEL));
  const level = LEVEL[c.type];
  return c.op === 'archive' ? maxLevel - level : maxLevel + 1 + level;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function compareChanges(a: Sortable, b: Sortable): number {
  return rank(a) - rank(b) || cmp(a.address, b.address) || cmp(a.id ?? '', b.id ?? '');
}

export function sortChanges(changes: Change[]): Change[] {
  return [...changes].sort(compareChanges);
}
