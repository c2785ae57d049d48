// Checks made before the first write. Archiving is the change that costs a team its menus,
// so a plan that archives many of them needs --force (octoDNS's update/delete thresholds):
// refused when it archives more than `maxArchive` resources AND more than `maxArchivePercent`
// of the managed ones. Both conditions, so small organizations can still clean up a few.

import type { Plan } from '../plan/types.js';

export interface ArchiveThresholds {
  maxArchive: number;
  maxArchivePercent: number;
  /**
   * Live, active resources the plan was made against (the denominator of the percentage),
   * counted by countManaged(). When unknown, every archive counts as 100%: only `maxArchive`
   * can then let a plan through (no guessed denominator).
   */
  managedCount?: number;
  /** Appended to a refusal: why `managedCount` may be below a fresh plan's count. */
  managedNote?: string;
}

export const DEFAULT_THRESHOLDS: ArchiveThresholds = { maxArchive: 10, maxArchivePercent: 25 };

export interface ArchiveCheck {
  archives: number;
  managed: number;
  percent: number;
  exceeded: boolean;
}

/**
 * The one definition of "managed resources" (docs/apply.md "Archive thresholds"): the active
 * actions, parsers and apps among those read. What was read differs by caller: a fresh plan
 * reads the parsers of the config's actions, `apply --plan` those of the actions the plan
 * touches (verify.ts).
 */
export function countManaged(live: {
  actions: readonly Archivable[];
  parsers: readonly Archivable[];
  apps: readonly Archivable[];
}): number {
  const active = (list: readonly Archivable[]) => list.filter((r) => r.archived_at === null).length;
  return active(live.actions) + active(live.parsers) + active(live.apps);
}

interface Archivable {
  archived_at: string | null;
}

export function checkArchiveThreshold(plan: Plan, thresholds: ArchiveThresholds): ArchiveCheck {
  const archives = plan.changes.filter((c) => c.op === 'archive').length;
  const managed = Math.max(thresholds.managedCount ?? archives, archives, 1);
  const percent = (archives / managed) * 100;
  const exceeded = archives > thresholds.maxArchive && percent > thresholds.maxArchivePercent;
  return { archives, managed, percent, exceeded };
}

export function thresholdMessage(check: ArchiveCheck, thresholds: ArchiveThresholds): string {
  return (
    `refusing to archive ${check.archives} of ${check.managed} managed resources (${check.percent.toFixed(0)}%): ` +
    `more than ${thresholds.maxArchive} and more than ${thresholds.maxArchivePercent}% need --force ` +
    `(limits: --max-archive, --max-archive-percent). ` +
    (thresholds.managedNote ? `${thresholds.managedNote}. ` : '') +
    `Nothing was changed.`
  );
}
