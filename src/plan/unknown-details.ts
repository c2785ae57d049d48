// Unknown is not empty (CONTRACT.md "Ownership"). An action adopted by export
// or import has step details the API does not show (step kind, expect text, description) and
// operator ids it shows only by name: the record marks them unknown. Sending the action sends
// the config's steps whole, so a plan never does that unless the user names the action in
// `--resend ADDRESS`: the refusal names what is unknown and the two ways on.

import { parseAddress } from '../model/address.js';
import { formatAddress, kindOf } from '../model/kinds/index.js';
import { warning, type Diagnostic, type Warning } from '../model/diagnostic.js';
import type { Comparison } from './compare.js';
import type { TargetScope } from './targets.js';
import { sendsWhole, type Change } from './types.js';

const UNKNOWN_FIELDS = 'step kinds (variable or select), expect texts, descriptions and operator ids';

/** Action addresses named one by one in --resend (`all` names none of the adopted ones). */
export function explicitResends(raw: readonly string[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const r of raw ?? []) {
    const parsed = parseAddress(r);
    if (parsed !== null && kindOf(parsed.type).hiddenDetails !== undefined) out.add(formatAddress(parsed));
  }
  return out;
}

/** Does this change send hidden details over live ones? (an action's steps: an update, a restore with a patch) */
const sendsSteps = (c: Change): boolean => kindOf(c.type).hiddenDetails !== undefined && c.op !== 'create' && sendsWhole(c);

export function unknownDetailErrors(cmp: Comparison, changes: readonly Change[], explicit: ReadonlySet<string>): Diagnostic[] {
  const unknown = new Map(cmp.pairs.flatMap((p) => (p.detailsUnknown ? [[p.address, p] as const] : [])));
  const out: Diagnostic[] = [];
  for (const c of changes) {
    const pair = unknown.get(c.address);
    if (!pair || !sendsSteps(c) || explicit.has(c.address)) continue;
    const why = c.fields.map((f) => f.path).join(', ');
    out.push({
      severity: 'error',
      code: 'plan.unknown-step-details',
      address: c.address,
      ...(pair.desired.loc ? { loc: pair.desired.loc } : {}),
      message:
        `${c.address} was adopted (by export or import), so its live ${UNKNOWN_FIELDS} are unknown to menuctl, ` +
        `and this change${why ? ` (${why})` : ''} would send the config's steps whole, over them. State them in the config ` +
        `(each step's kind, \`expect:\` and \`description:\` as they should be), then confirm with \`--resend '${c.address}'\`. Nothing was sent.`,
    });
  }
  return out;
}

/**
 * An adopted action whose config states hidden details (a description, an expect text, a select
 * step) that nothing compares: said once per action, so an edit there is not silently ignored.
 */
export function statedOverUnknown(cmp: Comparison, changes: readonly Change[], scope: TargetScope): Warning[] {
  const sent = new Set(changes.filter(sendsSteps).map((c) => c.address));
  return cmp.pairs.flatMap((p) => {
    if (!p.detailsUnknown || sent.has(p.address) || !scope.includes(p.address)) return [];
    if (kindOf(p.type).hiddenDetails?.stated(p.spec) !== true) return [];
    return [warning('plan.unknown-step-details',
      `${p.address} was adopted (by export or import): its live ${UNKNOWN_FIELDS} are unknown, so the ones the config states ` +
        `cannot be compared. Once they are what you want, send them with \`menuctl apply --resend '${p.address}'\`.`, p.address)];
  });
}
