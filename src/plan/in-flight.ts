// A create whose answer never came (issue 9 item 3). The record says an app create was sent
// and not answered; where the API cannot list apps, nothing can tell whether it exists, so the
// plan stops instead of sending it blindly again: pin the id, or confirm with --recreate.
// (Where apps can be listed, matching by package_name already found it or proved it absent.)

import type { Diagnostic } from '../model/diagnostic.js';
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
  if (live.apps_listed) return out;
  for (const pair of cmp.pairs) {
    if (pair.type !== 'app' || pair.live !== null || !inFlight.has(pair.address) || recreate.includes(pair.address)) continue;
    out.push({
      severity: 'error',
      code: 'plan.create-in-flight',
      message:
        `an earlier apply sent the create of ${pair.address} and never got the answer (it was interrupted), and the API ` +
        `cannot list apps to tell whether it exists. If it exists, pin it: add \`id: <its id>\` to the app in the config. ` +
        `If it does not, confirm a new create with \`--recreate '${pair.address}'\`. Nothing was sent.`,
      address: pair.address,
      ...(pair.desired.loc ? { loc: pair.desired.loc } : {}),
    });
  }
  return out;
}
