// The order apply works in, as data (decK's order.go). The levels are the planner's change
// classes (rank() in src/plan/order.ts), so the plan reads in the order it runs: creates,
// restores and updates top-down (actions and apps, then parsers, which need their action's
// public id), archives bottom-up. Changes inside one level are independent.

import { rank } from '../plan/order.js';
import type { Change } from '../plan/types.js';

/** Indexes into `changes`, grouped by rank ascending, each group in plan order. */
export function groupByLevel(changes: readonly Change[]): number[][] {
  const groups = new Map<number, number[]>();
  changes.forEach((change, i) => {
    const r = rank(change);
    const group = groups.get(r);
    // push, not a copy per change: copying made this quadratic (10,000 actions x 5 parsers).
    if (group) group.push(i);
    else groups.set(r, [i]);
  });
  return [...groups].sort(([a], [b]) => a - b).map(([, list]) => list);
}
