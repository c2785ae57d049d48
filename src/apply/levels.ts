// The order apply works in, as data (decK's order.go): creates, restores and updates top-down
// (actions and apps, then parsers, which need their action's public id), archives bottom-up
// (parsers, then the actions and apps that held them). Changes inside one level are independent.

import { LEVEL, type Change } from '../plan/types.js';

export const LEVEL_COUNT = 4;

export function levelOf(change: Change): number {
  const top = LEVEL[change.type];
  if (change.op !== 'archive') return top; // 0: actions/apps, 1: parsers
  return top === 1 ? 2 : 3; // 2: parser archives, 3: action/app archives
}

/** Indexes into `changes`, grouped by level, each group in plan order. */
export function groupByLevel(changes: readonly Change[]): number[][] {
  const groups: number[][] = Array.from({ length: LEVEL_COUNT }, () => []);
  changes.forEach((change, i) => groups[levelOf(change)]!.push(i));
  return groups;
}
