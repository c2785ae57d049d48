// A create whose answer never came (issue 9 item 3). The record says an app create was sent
// and not answered; where the API cannot list apps, nothing can tell whether it exists, so the
// plan holds that create back instead of sending it blindly again (the rest goes on): adopt it
// with `menuctl import`, or confirm a new one with --recreate.
// (Where apps can be listed, matching by package_name already found it or proved it absent.)

import { warning, type Diagnostic, type Warning } from '../model/diagnostic.js';
import { kindOf } from '../model/kinds/index.js';
import type { LiveState } from '../model/types.js';
import type { Comparison } from './compare.js';

export function inFlightErrors(cmp: Comparison, live: LiveState, recreate: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const pending = live.recorded?.scope?.apps;
  const inFlight = new Set([...(pending ?? [])].filter(([, a]) => a.pending === 'create').map(([address]) => address));
  for (const r of recreate) {
    if (!inFlight.has(r)) {
      out.push({
        severity: 'error',
        code: 'plan.recreate-unknown',
        message: `--recreate ${r}: the record has no create in flight for that address; --recreate only confirms such a create.`,
      });
    }
  }
  return out;
}

/**
 * The app creates held back: in flight in the record where the API cannot list apps (issue 28
 * item 2: one unresolved create holds back only itself; nothing depends on an app). Each is
 * named with what happened and the two ways out.
 */
export function heldBackCreates(cmp: Comparison, live: LiveState, recreate: readonly string[]): { addresses: Set<string>; warnings: Warning[] } {
  const addresses = new Set<string>();
  const warnings: Warning[] = [];
  if (live.apps_listed) return { addresses, warnings };
  const scope = live.recorded?.scope;
  for (const pair of cmp.pairs) {
    const kind = kindOf(pair.type);
    const line = kind.mayBeUnlisted && pair.live === null ? scope?.[kind.recordedIn!].get(pair.address) : undefined;
    if (line?.pending !== 'create' || recreate.includes(pair.address)) continue;
    addresses.add(pair.address);
    const what = line.lost ? `its answer was lost (${line.lost})` : 'the apply stopped before its answer came (interrupted)';
    warnings.push(warning('plan.create-in-flight',
      `an earlier apply sent the create of ${pair.address} and ${what}, and the API cannot list apps to tell whether it ` +
        `exists: this create is held back, the rest of the plan is not. If it exists, adopt it: \`menuctl import '${pair.address}' ID\` ` +
        `(its id is in the API's web console or the create's logs). If it does not, confirm a new create with \`--recreate '${pair.address}'\`.`,
      pair.address));
  }
  return { addresses, warnings };
}
