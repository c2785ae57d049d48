// Canonical forms: what the planner compares. Both sides (config and API) are reduced to the
// fields menuctl manages, with the server's defaults filled in and server-generated data
// (ids, timestamps, transactions_count, description) dropped, so a difference is a real one.
// Each kind's canonical form is in its module (model/kinds/<kind>.ts) and re-exported here;
// this file adds the desired state as one canonical value (the plan's config digest). Pure: no I/O.

import type { DesiredState, OperatorRef } from './types.js';
import { canonicalResolvedAction, canonicalLiveAction, type CanonicalAction } from './kinds/action.js';
import { canonicalApp, type CanonicalApp } from './kinds/app.js';
import { canonicalParser, resolveParser, type CanonicalParser } from './kinds/parser.js';
import { canonicalStep, hasHiddenStepDetails } from './kinds/steps.js';
import { byCodeUnit } from './kinds/values.js';

export {
  canonicalApp, canonicalResolvedAction, canonicalLiveAction, canonicalParser, canonicalStep, resolveParser, hasHiddenStepDetails,
  type CanonicalAction, type CanonicalApp, type CanonicalParser,
};

// ---- the desired state as one canonical value (for the plan's config_digest) ----

// Operator refs keep their form (id or name): the digest is of the config, not of the catalog.
const refKey = (r: OperatorRef): string => JSON.stringify(r.ref);

/**
 * The desired state with everything that cannot change a plan removed: source locations,
 * file names, parser fixtures, key order, and the order of resources (plans are sorted by
 * address, so moving an action to another file or reordering a list changes nothing).
 * Step order is kept: it is meaningful.
 */
export function canonicalDesiredState(state: DesiredState): unknown {
  const { organization_id, actions, apps } = canonicalDesiredParts(state);
  return { organization_id, actions: [...actions], apps: [...apps] };
}

/**
 * canonicalDesiredState's three members, its lists made one element at a time as they are read
 * (sorted first): the config digest hashes them so, since the whole value and its JSON were a
 * big config's largest short-lived allocation.
 */
export function canonicalDesiredParts(state: DesiredState): { organization_id: unknown; actions: Iterable<unknown>; apps: Iterable<unknown> } {
  const actions = [...state.actions].sort((a, b) => byCodeUnit(a.name, b.name));
  const apps = [...state.apps].sort((a, b) => byCodeUnit(a.package_name, b.package_name));
  return { organization_id: state.organization_id ?? null, actions: mapped(actions, canonicalDesiredAction), apps: mapped(apps, canonicalDesiredApp) };
}

function canonicalDesiredAction(a: DesiredState['actions'][number]): unknown {
  return {
    name: a.name,
    id: a.id ?? null,
    protected: a.protected === true,
    renamed_from: a.renamed_from ?? null,
    root_code: a.root_code,
    transport_type: a.transport_type,
    operators: a.operators.map(refKey).sort(byCodeUnit),
    steps: a.steps.map(canonicalStep),
    parsers: [...a.parsers]
      .sort((x, y) => byCodeUnit(x.category, y.category))
      .map((p) => ({
        ...canonicalParser(resolveParser(p)),
        id: p.id ?? null,
        protected: p.protected === true,
        renamed_from: p.renamed_from ?? null,
      })),
  };
}

function canonicalDesiredApp(a: DesiredState['apps'][number]): unknown {
  return { ...canonicalApp(a), id: a.id ?? null, protected: a.protected === true };
}

/** `list` mapped by `f` as it is iterated, as many times as it is. */
function mapped<T, U>(list: readonly T[], f: (x: T) => U): Iterable<U> {
  return { *[Symbol.iterator]() { for (const x of list) yield f(x); } };
}
