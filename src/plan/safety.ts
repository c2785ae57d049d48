// The archive thresholds. Archiving is the change that costs a team its menus, so a plan that
// archives many of them needs --force (octoDNS's update/delete thresholds): refused when it
// archives more than `maxArchive` resources AND more than `maxArchivePercent` of the managed
// ones. Both conditions, so small organizations can still clean up a few. Evaluated when the
// plan is made (so `plan` says what apply will refuse) and recorded in it (Plan.safety), so a
// fresh apply and `apply --plan` judge the same numbers.

import type { Change, Plan, PlanSafety } from './types.js';

export interface ArchiveThresholds {
  maxArchive: number;
  maxArchivePercent: number;
  /**
   * Live, active resources the plan was made against (the denominator of the percentage),
   * counted by countManaged(). When unknown, every archive counts as 100%: only `maxArchive`
   * can then let a plan through (no guessed denominator).
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

/**
 * The one definition of "managed resources" (docs/apply.md "Archive thresholds"): the active
 * actions, parsers and apps of the live state a plan is made from (all actions and apps, the
 * parsers of the config's actions).
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

export function checkArchiveThreshold(changes: readonly Change[], thresholds: ArchiveThresholds): ArchiveCheck {
  const archives = changes.filter((c) => c.op === 'archive').length;
  const managed = Math.max(thresholds.managedCount ?? archives, archives, 1);
  const percent = (archives / managed) * 100;
  const exceeded = archives > thresholds.maxArchive && percent > thresholds.maxArchivePercent;
  return { archives, managed, percent, exceeded };
}

/**
 * What `plan` records and shows: the check, the limits, whether --force acknowledged it, and the
 * archives `protected:` forbids (plan/protect.ts; such a plan is an error and is never saved).
 */
export function evaluateSafety(
  changes: readonly Change[],
  thresholds: ArchiveThresholds,
  o: { force: boolean; protectedArchives?: PlanSafety['protected'] },
): PlanSafety {
  const { force } = o;
  const check = checkArchiveThreshold(changes, thresholds);
  return {
    archives: check.archives,
    managed: check.managed,
    percent: Math.round(check.percent * 10) / 10,
    max_archive: thresholds.maxArchive,
    max_archive_percent: thresholds.maxArchivePercent,
    exceeded: check.exceeded,
    force,
    refusal: check.exceeded && !force
      ? `apply will refuse: ${check.archives} of ${check.managed} managed resources archived (${formatPercent(check.percent)}) ` +
        `> ${thresholds.maxArchivePercent}%: pass --force after review`
      : null,
    protected: o.protectedArchives ?? [],
  };
}

/** The thresholds a saved plan was judged by, for apply to judge it again. */
export function recordedThresholds(plan: Pick<Plan, 'safety'>): ArchiveThresholds | null {
  const s = plan.safety;
  return s ? { maxArchive: s.max_archive, maxArchivePercent: s.max_archive_percent, managedCount: s.managed } : null;
}

export function thresholdMessage(check: ArchiveCheck, thresholds: ArchiveThresholds): string {
  return (
    `refusing to archive ${check.archives} of ${check.managed} managed resources (${formatPercent(check.percent)}): ` +
    `more than ${thresholds.maxArchive} and more than ${thresholds.maxArchivePercent}% need --force ` +
    `(limits: --max-archive, --max-archive-percent; for a saved plan, acknowledge it with \`menuctl plan --force --out FILE\` after review). ` +
    `Nothing was changed.`
  );
}

function formatPercent(p: number): string {
  return `${p.toFixed(0)}%`;
}
