// Per-action checks: root_code shape for ussd, operator references against the catalog.

import { actionAddress } from '../../model/address.js';
import { describeOperator, resolveOperator, unresolvedOperator } from '../../model/catalog.js';
import type { DesiredAction } from '../../model/types.js';
import { locOf, report, where, type CheckContext } from './context.js';

/** `*144#`, `*544*1#`, `#150#`: starts with * or #, then digits and *, ends with #. */
export const USSD_CODE = /^[*#](?=[*\d]*\d)[*\d]*#$/;

export function checkActions(ctx: CheckContext): void {
  for (const f of ctx.files) {
    for (const a of f.actions) {
      checkRootCode(ctx, a);
      checkOperators(ctx, a);
    }
  }
}

function checkRootCode(ctx: CheckContext, a: DesiredAction): void {
  if (a.transport_type !== 'ussd' || a.root_code === '' || USSD_CODE.test(a.root_code)) return;
  const hint = /\s/.test(a.root_code) ? ' (it contains spaces)' : '';
  report(ctx, { code: 'semantic.root-code', loc: locOf(ctx, a, 'root_code'), address: actionAddress(a.name),
    message: `root_code ${JSON.stringify(a.root_code)} is not a USSD code${hint}: write it like "*144#", "*544*1#" or "#150#" (quoted, since # starts a YAML comment).` });
}

function checkOperators(ctx: CheckContext, a: DesiredAction): void {
  const seen = new Map<number, DesiredAction['operators'][number]>();
  for (const op of a.operators) {
    const r = resolveOperator(op.ref, ctx.catalog);
    if (r.ok && !seen.has(r.operator.id)) { seen.set(r.operator.id, op); continue; }
    const address = actionAddress(a.name);
    if (r.ok) {
      const prev = seen.get(r.operator.id);
      if (prev) {
        report(ctx, { severity: 'warning', code: 'semantic.duplicate-operator', loc: op.loc, address,
          message: `operator ${describeOperator(r.operator)} is listed twice (also at ${where(prev.loc)}); remove one.` });
      } else seen.set(r.operator.id, op);
      continue;
    }
    report(ctx, { ...unresolvedOperator(op.ref, r, ctx.catalog), loc: op.loc, address });
  }
}
