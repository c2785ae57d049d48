// Resolves the operators an action lists (world operator ids or exact names) against the live
// catalog (GET /api/world_operators), so apply sends ids and the diff compares names.

import { actionAddress } from '../model/address.js';
import { resolveOperator } from '../model/catalog.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { DesiredAction, WorldOperator } from '../model/types.js';

export interface ResolvedOperators {
  /** Sorted, unique world operator ids. */
  ids: number[];
  diagnostics: Diagnostic[];
}

const describe = (o: WorldOperator): string => `${o.id} (${o.country_alpha2 || '?'})`;

export function resolveActionOperators(action: DesiredAction, catalog: readonly WorldOperator[]): ResolvedOperators {
  const ids = new Set<number>();
  const diagnostics: Diagnostic[] = [];
  const address = actionAddress(action.name);
  for (const ref of action.operators) {
    const r = resolveOperator(ref.ref, catalog);
    if (r.ok) {
      ids.add(r.operator.id);
      continue;
    }
    const loc = ref.loc ?? action.loc;
    const shown = JSON.stringify(ref.ref);
    let message: string;
    let code: string;
    if (r.reason === 'ambiguous-name') {
      code = 'plan.operator-ambiguous';
      message =
        `operator ${shown} is the name of ${r.candidates.length} operators: ` +
        `${r.candidates.map(describe).join(', ')}; write the id of the one you mean.`;
    } else {
      code = 'plan.operator-unknown';
      const hint = r.candidates.length > 0 ? ` Did you mean ${r.candidates.map((o) => JSON.stringify(o.name) + ' ' + describe(o)).join(', ')}?` : '';
      message =
        `operator ${shown} is not in the API's world operator list; ` +
        `use an id or exact name from \`menuctl operators\`.${hint}`;
    }
    diagnostics.push({ severity: 'error', code, message, address, ...(loc ? { loc } : {}) });
  }
  return { ids: [...ids].sort((a, b) => a - b), diagnostics };
}

/** Maps an id to the name the API echoes for it (ids resolved above always exist). */
export function operatorNamer(catalog: readonly WorldOperator[]): (id: number) => string {
  const names = new Map(catalog.map((o) => [o.id, o.name]));
  return (id) => names.get(id) ?? `#${id}`;
}
