// Checks made before the first write. Archiving is the change that costs a team its menus,
// so a plan that archives many of them needs --force (octoDNS's update/delete thresholds):
// refused when it archives more than `maxArchive` resources AND more than `maxArchivePercent`
// of the managed ones. Both conditions, so small organizations can still clean up a few.

import type { DesiredState } from '../model/types.js';
import { actionAddress, appAddress, parserAddress } from '../model/address.js';
import type { Plan } from '../plan/types.js';

export interface ArchiveThresholds {
  maxArchive: number;
  maxArchivePercent: number;
  /**
   * Live, active resources the plan was made against (the denominator of the percentage).
   * When unknown, the distinct live ids the plan touches are used: a lower bound, so the
   * check errs on the side of refusing.
   */
  managedCount?: number;
}

export const DEFAULT_THRESHOLDS: ArchiveThresholds = { maxArchive: 10, maxArchivePercent: 25 };

export interface ArchiveCheck {
  archives: number;
  managed: number;
  percent: number;
  exceeded: boolean;
}

export function checkArchiveThreshold(plan: Plan, thresholds: ArchiveThresholds): ArchiveCheck {
  const archives = plan.changes.filter((c) => c.op === 'archive').length;
  const touched = new Set(plan.changes.flatMap((c) => (c.id === null ? [] : [`${c.type}:${c.id}`]))).size;
  const managed = Math.max(thresholds.managedCount ?? touched, archives, 1);
  const percent = (archives / managed) * 100;
  const exceeded = archives > thresholds.maxArchive && percent > thresholds.maxArchivePercent;
  return { archives, managed, percent, exceeded };
}

export function thresholdMessage(check: ArchiveCheck, thresholds: ArchiveThresholds): string {
  return (
    `refusing to archive ${check.archives} of ${check.managed} managed resources (${check.percent.toFixed(0)}%): ` +
    `more than ${thresholds.maxArchive} and more than ${thresholds.maxArchivePercent}% need --force ` +
    `(limits: --max-archive, --max-archive-percent). Nothing was changed.`
  );
}

/**
 * The planner refuses to archive `protected: true` resources; this is a second line of defence
 * for a fresh plan, where the desired state is at hand (a saved plan does not carry `protected`).
 */
export function protectedArchives(plan: Plan, desired: DesiredState): string[] {
  const byAddress = new Set<string>();
  const byId = new Set<string>();
  const mark = (address: string, id: string | undefined, type: string) => {
    byAddress.add(address);
    if (id !== undefined) byId.add(`${type}:${id}`);
  };
  for (const action of desired.actions) {
    if (action.protected) mark(actionAddress(action.name), action.id, 'action');
    for (const p of action.parsers) if (p.protected) mark(parserAddress(action.name, p.category), p.id, 'parser');
  }
  for (const app of desired.apps) if (app.protected) mark(appAddress(app.package_name), app.id, 'app');
  return plan.changes
    .filter((c) => c.op === 'archive' && (byAddress.has(c.address) || byId.has(`${c.type}:${c.id}`)))
    .map((c) => c.address);
}
