// Which live actions the live reader must read the parsers of: those a desired action can
// match by name, old name (renamed_from) or pinned id. Reading only these keeps a plan to the
// minimum of requests: the parsers of each action that matters.

import type { DesiredState, LiveAction } from '../model/types.js';

export function wantParsers(desired: DesiredState): (action: LiveAction) => boolean {
  const names = new Set<string>();
  const ids = new Set<string>();
  for (const a of desired.actions) {
    names.add(a.name);
    if (a.renamed_from !== undefined) names.add(a.renamed_from);
    if (a.id !== undefined) ids.add(a.id);
  }
  return (action) => ids.has(action.id) || names.has(action.name);
}
