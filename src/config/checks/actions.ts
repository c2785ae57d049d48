// Per-action checks: root_code shape for ussd, operator references against the catalog.

import { actionAddress } from '../../model/address.js';
import { resolveOperator } from '../../model/catalog.js';
import type { DesiredAction, WorldOperator } from '../../model/types.js';
import { suggest } from '../suggest.js';
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

function describe(op: WorldOperator): string {
  return `${op.id} ${JSON.stringify(op.name)} (${op.country_alpha2})`;
}

function nearMisses(ref: string | number, catalog: readonly WorldOperator[], folded: WorldOperator[]): string {
  if (typeof ref === 'number') return '';
  const lower = ref.trim().toLowerCase();
  const close = suggest(ref, [...new Set(catalog.map((o) => o.name))], 3).flatMap((n) => catalog.filter((o) => o.name === n));
  const containing = lower.length >= 3 ? catalog.filter((o) => o.name.toLowerCase().includes(lower)) : [];
  const byName = folded.length > 0 ? folded : [...new Set([...close, ...containing])];
  return byName.length > 0 ? ` Did you mean ${byName.slice(0, 5).map(describe).join(', ')}?` : '';
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
          message: `operator ${describe(r.operator)} is listed twice (also at ${where(prev.loc)}); remove one.` });
      } else seen.set(r.operator.id, op);
      continue;
    }
    if (r.reason === 'ambiguous-name') {
      report(ctx, { code: 'semantic.operator-ambiguous', loc: op.loc, address,
        message: `operator name ${JSON.stringify(op.ref)} matches ${r.candidates.length} operators: ${r.candidates.map(describe).join(', ')}. Use the id of the one you mean.` });
    } else {
      const what = r.reason === 'unknown-id' ? `operator id ${op.ref}` : `operator name ${JSON.stringify(op.ref)}`;
      report(ctx, { code: 'semantic.operator-unknown', loc: op.loc, address,
        message: `${what} is not in the world operator catalog (names must match exactly).${nearMisses(op.ref, ctx.catalog, r.candidates)} Run \`menuctl operators\` to list them.` });
    }
  }
}
