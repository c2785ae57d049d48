// `--target ADDRESS`: limits a plan or drift report to some resources. An action target takes
// in the action's parsers; a parser target only that parser (build-plan adds its action's
// create when the action does not exist yet, with a warning).

import { actionAddress, appAddress, parseAddress } from '../model/address.js';
import { formatAddress } from '../model/kinds/index.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { LiveState } from '../model/types.js';
import type { Comparison } from './compare.js';

export interface TargetScope {
  /** Normalised target addresses, sorted; empty when not limited. */
  targets: string[];
  /** True when the resource (a parser: with its action's address as parent) is in scope. */
  includes(address: string, parent?: string): boolean;
  diagnostics: Diagnostic[];
}

function normalise(address: string): string | null {
  const p = parseAddress(address);
  return p ? formatAddress(p) : null;
}

/**
 * `known`: every address in the config and the live state, to catch typos; asked for only when
 * there are targets (600,000 addresses at 100,000 actions x 5, for a plan that names none).
 */
export function targetScope(raw: readonly string[] | undefined, known: () => ReadonlySet<string>): TargetScope {
  const diagnostics: Diagnostic[] = [];
  const set = new Set<string>();
  let knownSet: ReadonlySet<string> | undefined;
  for (const t of raw ?? []) {
    const n = normalise(t);
    if (n === null) {
      diagnostics.push({
        severity: 'error',
        code: 'plan.target-invalid',
        message: `--target ${t} is not an address; write action["Name"], action["Name"].parser["category"] or app["package.name"].`,
      });
    } else if (!(knownSet ??= known()).has(n)) {
      diagnostics.push({
        severity: 'error',
        code: 'plan.target-unknown',
        message: `--target ${n} matches nothing in the config or the live state; check the spelling (names are exact and case-sensitive).`,
        address: n,
      });
    } else {
      set.add(n);
    }
  }
  const targets = [...set].sort();
  const limited = (raw ?? []).length > 0;
  return {
    targets,
    diagnostics,
    includes: (address, parent) => !limited || set.has(address) || (parent !== undefined && set.has(parent)),
  };
}

/** Every address in the config and the live state: what a --target may name (plan and drift alike). */
export function knownAddresses(cmp: Comparison, live: LiveState): Set<string> {
  const known = new Set<string>();
  for (const p of cmp.pairs) known.add(p.address);
  for (const o of cmp.orphans) known.add(o.address);
  for (const a of live.actions) known.add(actionAddress(a.name));
  for (const a of live.apps) known.add(appAddress(a.package_name));
  return known;
}
