// A create whose answer never came. The record says an app create was sent
// and not answered; where the API cannot list apps, nothing can tell whether it exists, so the
// plan holds that create back instead of sending it blindly again (the rest goes on): adopt it
// with `menuctl import`, or confirm a new one with --recreate.
// (Where apps can be listed, matching by package_name already found it or proved it absent.)

import { warning, type Diagnostic, type Warning } from '../model/diagnostic.js';
import { kindOf } from '../model/kinds/index.js';
import type { LiveState, RecordedScope } from '../model/types.js';
import type { Comparison } from './compare.js';

export function inFlightErrors(recorded: RecordedScope | undefined, recreate: readonly string[], confirmable: ReadonlySet<string> = new Set()): Diagnostic[] {
  const out: Diagnostic[] = [];
  const pending = recorded?.scope?.apps;
  const inFlight = new Set([...(pending ?? [])].filter(([, a]) => a.pending === 'create').map(([address]) => address));
  for (const r of recreate) {
    if (!inFlight.has(r) && !confirmable.has(r)) {
      out.push({
        severity: 'error',
        code: 'plan.recreate-unknown',
        message: `--recreate ${r}: the plan holds back no create of that address; --recreate only confirms an app create the plan held back (in flight, or unverifiable).`,
      });
    }
  }
  return out;
}

/** The codes of the warnings that name an app create the plan held back (apply exits 1 on them). */
export const HELD_BACK_CODES: ReadonlySet<string> = new Set(['plan.create-in-flight', 'plan.create-unverified']);

/**
 * The app creates held back where the API cannot list apps (so nothing can prove an app absent):
 *  - in flight in the record (one unresolved create holds back only itself; nothing depends on
 *    an app);
 *  - any app create, when the record looks incomplete for this API: it names
 *    an app id the API does not know, or actions of the config exist live without a line in it
 *    (a record rewound, replaced or never written for an organization that has things already).
 *    Its apps may exist too, so creating them blindly would make duplicates.
 * Every other app create there is planned with a warning naming `id:` and `menuctl import`: its
 * package_name may exist in the organization, created by hand.
 * `confirmable`: the addresses --recreate may confirm. `recorded`: the record for this API, when one was read.
 */
export function heldBackCreates(
  cmp: Comparison, live: LiveState, recorded: RecordedScope | undefined, recreate: readonly string[],
): { addresses: Set<string>; warnings: Warning[]; confirmable: Set<string> } {
  const addresses = new Set<string>();
  const confirmable = new Set<string>();
  const warnings: Warning[] = [];
  if (live.apps_listed) return { addresses, warnings, confirmable };
  const scope = recorded?.scope ?? null;
  const doubt = recorded ? recordDoubt(cmp, live, scope) : null;
  const creates: string[] = [];
  for (const pair of cmp.pairs) {
    const kind = kindOf(pair.type);
    if (!kind.mayBeUnlisted || pair.live !== null) continue;
    const line = scope?.[kind.recordedIn!].get(pair.address);
    if (line?.pending === 'create') {
      confirmable.add(pair.address);
      if (recreate.includes(pair.address)) continue;
      addresses.add(pair.address);
      const what = line.lost ? `its answer was lost (${line.lost})` : 'the apply stopped before its answer came (interrupted)';
      warnings.push(warning('plan.create-in-flight',
        `an earlier apply sent the create of ${pair.address} and ${what}, and the API cannot list apps to tell whether it ` +
          `exists: this create is held back, the rest of the plan is not. If it exists, adopt it: \`menuctl import '${pair.address}' ID\` ` +
          `(its id is in the API's web console or the create's logs). If it does not, confirm a new create with \`--recreate '${pair.address}'\`.`,
        pair.address));
      continue;
    }
    if (doubt !== null) {
      confirmable.add(pair.address);
      if (recreate.includes(pair.address)) continue;
      addresses.add(pair.address);
      warnings.push(warning('plan.create-unverified',
        `the API cannot list apps, and ${recorded!.file} looks incomplete for this API (${doubt}), so ${pair.address} may exist ` +
          'already: its create is held back, the rest of the plan is not. If it exists, pin it with `id:` in the config or adopt it ' +
          `with \`menuctl import '${pair.address}' ID\` (its id is in the API's web console). If it does not, confirm the create with \`--recreate '${pair.address}'\`.`,
        pair.address));
      continue;
    }
    creates.push(pair.address);
  }
  // With no record at all for this API, read-live's live.apps-not-recorded says it once for all;
  // with none read (a plan made without one), live.apps-not-listed does.
  if (scope !== null) {
    for (const address of creates) {
      warnings.push(warning('plan.app-create-unverifiable',
        `the API cannot list apps, so nothing shows whether ${address} exists already (made in the web console, or by a run whose ` +
          `record was lost): if it does, pin it with \`id:\` or adopt it with \`menuctl import '${address}' ID\` before applying, or it is created twice.`,
        address));
    }
  }
  return { addresses, warnings, confirmable };
}

/**
 * Why the record may not know every app menuctl made in this organization, or null: it names an
 * app id the API does not know, or config actions exist live with no line in it.
 */
function recordDoubt(cmp: Comparison, live: LiveState, scope: RecordedScope['scope']): string | null {
  const known = new Set(live.apps.map((a) => a.id));
  for (const [address, line] of scope?.apps ?? []) {
    if (line.id !== null && !known.has(line.id)) return `it records app id ${JSON.stringify(line.id)} for ${address}, which the API does not know`;
  }
  let unrecorded = 0;
  let first = '';
  for (const pair of cmp.pairs) {
    // `recorded` holds for a line with this live id, one in flight, and an adopted one alike.
    if (pair.type !== 'action' || pair.live === null || pair.recorded) continue;
    if (unrecorded++ === 0) first = pair.address;
  }
  if (unrecorded === 0) return null;
  return `${unrecorded} action(s) of the config, ${first} first, exist live with no line in it`;
}
