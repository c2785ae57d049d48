// Live actions name their operators; the config prefers world operator ids, which are
// unambiguous. A name shared by several operators ("MTN" in a dozen countries) cannot be
// resolved from the live action alone: export the first candidate and say which others it
// could be. The planner compares operators by name, so any of them plans no change.

import type { WorldOperator } from '../model/types.js';

export interface ExportedOperator {
  ref: number | string;
  comment: string;
}

export function exportOperators(names: readonly string[], catalog: readonly WorldOperator[]): ExportedOperator[] {
  const byName = new Map<string, WorldOperator[]>();
  for (const op of catalog) byName.set(op.name, [...(byName.get(op.name) ?? []), op]);
  // One live action may list an ambiguous name more than once (MTN Ghana and MTN Nigeria):
  // hand out distinct candidates so the exported list has no duplicate id.
  const used = new Map<string, number>();
  return names.map((name) => {
    const candidates = byName.get(name) ?? [];
    if (candidates.length === 0) return { ref: name, comment: 'not in the world operator list; kept by name' };
    const label = JSON.stringify(name);
    if (candidates.length === 1) return { ref: candidates[0]!.id, comment: `${label} (${candidates[0]!.country_alpha2})` };
    const n = used.get(name) ?? 0;
    used.set(name, n + 1);
    const pick = candidates[Math.min(n, candidates.length - 1)]!;
    const others = candidates.filter((c) => c !== pick).map((c) => `${c.id} (${c.country_alpha2})`);
    return {
      ref: pick.id,
      comment: `${label} (${pick.country_alpha2})? or ${others.join(', ')}: the API gives only the name; ` +
        'plans compare names, so any of them shows no change; keep the right one',
    };
  });
}
