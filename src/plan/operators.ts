// Resolves the operators an action lists (world operator ids or exact names) against the live
// catalog (GET /api/world_operators), so apply sends ids and the diff compares names.

import { actionAddress } from '../model/address.js';
import { resolveOperator, unresolvedOperator } from '../model/catalog.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { DesiredAction, WorldOperator } from '../model/types.js';

export interface ResolvedOperators {
  /** Sorted, unique world operator ids. */
  ids: number[];
  diagnostics: Diagnostic[];
}

/** Same rule, code and wording as `validate` (model/catalog.ts), here against the live catalog. */
export function resolveActionOperators(action: DesiredAction, catalog: readonly WorldOperator[]): ResolvedOperators {
  const ids = new Set<number>();
  const diagnostics: Diagnostic[] = [];
  for (const ref of action.operators) {
    const r = resolveOperator(ref.ref, catalog);
    if (r.ok) {
      ids.add(r.operator.id);
      continue;
    }
    const loc = ref.loc ?? action.loc;
    diagnostics.push({ severity: 'error', ...unresolvedOperator(ref.ref, r, catalog), address: actionAddress(action.name), ...(loc ? { loc } : {}) });
  }
  return { ids: [...ids].sort((a, b) => a - b), diagnostics };
}

/** Maps an id to the name the API echoes for it (ids resolved above always exist). */
export function operatorNamer(catalog: readonly WorldOperator[]): (id: number) => string {
  const names = new Map(catalog.map((o) => [o.id, o.name]));
  return (id) => names.get(id) ?? `#${id}`;
}
