// Drift grouped the way a reader triages it: by class, in a fixed order, with per-class wording.
import type { Drift, DriftClass, DriftField, DriftItem } from '../plan/drift-types.js';
import { changeView, type FieldView } from './plan-values.js';

export const CLASSES: readonly DriftClass[] = ['changed', 'archived', 'missing', 'removed', 'unmanaged'];

export const CLASS_INFO: Record<DriftClass, { symbol: string; meaning: string }> = {
  changed: { symbol: '~', meaning: 'live fields differ from the configuration' },
  archived: { symbol: '-', meaning: 'archived outside the configuration' },
  missing: { symbol: '!', meaning: 'in the configuration, absent live' },
  removed: { symbol: '-', meaning: 'managed by menuctl, removed from the configuration: the next apply archives it' },
  unmanaged: { symbol: '?', meaning: 'live, not in the configuration' },
};

export function byClass(drift: Drift): Map<DriftClass, DriftItem[]> {
  const groups = new Map<DriftClass, DriftItem[]>(CLASSES.map((c) => [c, []]));
  for (const item of drift.drift) groups.get(item.class)!.push(item);
  return groups;
}

export function driftSummaryLine(drift: Drift): string {
  if (drift.drift.length === 0) return 'No drift: the live API matches the configuration.';
  const g = byClass(drift);
  // `removed` is named only when there is one: it is the config's own change, not drift.
  return `Drift: ${CLASSES.filter((c) => c !== 'removed' || g.get(c)!.length > 0).map((c) => `${g.get(c)!.length} ${c}`).join(', ')}.`;
}

/**
 * What to do about the drift, in one sentence; null when in sync. `apply` leaves unmanaged
 * resources alone (only --prune archives them), so for those it names the other ways out,
 * `ignore:` first: drift keeps reporting them until the config says something about them.
 */
export function driftAdvice(drift: Drift): string | null {
  if (drift.drift.length === 0) return null;
  const unmanaged = byClass(drift).get('unmanaged')!.length;
  const leaveAlone = 'list them under `ignore:` in the configuration to leave them alone, add them to it (`menuctl export` writes their YAML), or archive them with `menuctl apply --prune`';
  if (unmanaged === drift.drift.length) return `Only live resources the configuration does not have: ${leaveAlone}.`;
  const apply = 'Run `menuctl apply` to make the live API match the configuration, or change the configuration to match';
  return unmanaged > 0 ? `${apply}. For the unmanaged ones, ${leaveAlone}.` : `${apply}.`;
}

/** A drifted field shown as a change from what the config expects (-) to what is live (+). */
export function driftFieldView(f: DriftField, width: number): FieldView {
  return changeView({ path: f.path, before: f.expected, after: f.live }, { width });
}
