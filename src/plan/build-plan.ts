// buildPlan: (desired, live, options) -> the Plan, whole, before anything is written.
// Pure and deterministic: the same inputs give the same JSON byte for byte.

import { parseAddress } from '../model/address.js';
import { ignoreMatcher } from '../model/ignore.js';
import { formatAddress, kindOf, parentOf } from '../model/kinds/index.js';
import { archiveReason, managedOrphans } from './ownership.js';
import { explicitResends, statedOverUnknown, unknownDetailErrors } from './unknown-details.js';
import { warning, type Diagnostic, type Warning } from '../model/diagnostic.js';
import type { DesiredState, LiveState, RecordedScope, ResourceType } from '../model/types.js';
import { archiveForOrphan, changeForPair } from './changes.js';
import { compareStates, type Comparer, type Comparison, type Orphan } from './compare.js';
import { configDigest } from './digest.js';
import { countHiddenStepActions, unrecordedWhy } from './hidden-steps.js';
import { heldBackCreates, inFlightErrors } from './in-flight.js';
import { operatorNamer } from './operators.js';
import { compareChanges, sortChanges } from './order.js';
import { protectedArchives, protectionError } from './protect.js';
import { countManaged, evaluateSafety } from './safety.js';
import { knownAddresses, targetScope, type TargetScope } from './targets.js';
import type { ArchiveChange, Change, Plan, PlanSummary } from './types.js';

export interface PlanOptions {
  /** `--target` addresses; empty or absent: everything. */
  targets?: string[];
  /** `--prune`: archive live actions and apps that are not in the config. */
  prune?: boolean;
  /** `--resend`: action addresses (or "all") whose steps are re-sent even when they look equal. */
  resend?: string[];
  /** Archive thresholds to evaluate and record as `safety` (plan/safety.ts); absent: no `safety`. */
  thresholds?: { maxArchive: number; maxArchivePercent: number };
  /** `--force` at plan time: archives beyond the thresholds acknowledged by whoever reviews this plan. */
  force?: boolean;
  /** `--recreate`: app addresses whose create is in flight in the record, confirmed to be sent again. */
  recreate?: string[];
  /** The applied-state record for this API (what the API does not echo); absent when none was read. */
  recorded?: RecordedScope | undefined;
}

export interface PlanResult {
  plan: Plan;
  /** Which live resource each desired one is: what the plan was read from. */
  comparison: Comparison;
  /** Errors mean the plan must not be applied (the CLI refuses to go on). */
  diagnostics: Diagnostic[];
}

/** `comparer`: the comparison begun while the live state was read (engine/read-live.ts readLiveComparing); else it is made here. */
export function buildPlan(desired: DesiredState, live: LiveState, options: PlanOptions = {}, comparer?: Comparer): PlanResult {
  const { recorded } = options;
  const cmp = comparer ? comparer.finish(live, recorded) : compareStates(desired, live, recorded);
  const diagnostics = [...cmp.diagnostics];
  const scope = targetScope(options.targets, () => knownAddresses(cmp, live));
  diagnostics.push(...scope.diagnostics);
  const resend = resendSet(options.resend, cmp, diagnostics);
  const prune = options.prune === true;
  const nameOf = operatorNamer(live.operators);

  const all: Change[] = [];
  for (const pair of cmp.pairs) {
    const change = changeForPair(pair, { resend, nameOf });
    if (change) all.push(change);
  }
  diagnostics.push(...unknownDetailErrors(cmp, all, explicitResends(options.resend)));
  const archives: { change: ArchiveChange; orphan: Orphan }[] = [];
  const owned = managedOrphans(cmp, recorded);
  const ignored = ignoreMatcher(desired.ignore);
  for (const orphan of cmp.orphans) {
    const reason = archiveReason(orphan, owned, prune && !ignored(orphan.address));
    if (reason === null) continue;
    const change = archiveForOrphan(orphan, reason);
    if (scope.includes(change.address, change.parent)) archives.push({ change, orphan });
  }
  const warnings = [...live.warnings];
  const held = heldBackCreates(cmp, live, recorded, options.recreate ?? []);
  warnings.push(...held.warnings);
  const planned = all.filter((c) => !(c.op === 'create' && held.addresses.has(c.address)) && !cmp.disagrees.has(c.address));
  const changes = [...inScope(planned, scope, warnings), ...archives.map((a) => a.change)];
  const guarded = protectedArchives(cmp, archives);
  diagnostics.push(...guarded.map(protectionError));
  diagnostics.push(...inFlightErrors(recorded, options.recreate ?? [], held.confirmable));
  if (scope.targets.length > 0) {
    warnings.push(warning('plan.target-partial', 'This plan is limited by --target: other changes the config needs may be left out; plan without --target before relying on it.'));
  }
  const hidden = hiddenStepWarning(cmp, changes, scope, recorded);
  if (hidden) warnings.push(hidden);
  warnings.push(...statedOverUnknown(cmp, changes, scope));

  const sorted = sortChanges(changes);
  const plan = withLazyDigest(desired, {
    format_version: 1,
    organization_id: live.organization_id,
    ...(desired.environment !== undefined ? { environment: desired.environment } : {}),
  }, {
    targets: scope.targets,
    prune,
    ...(options.thresholds
      ? {
        safety: evaluateSafety(sorted, { ...options.thresholds, managedCount: countManaged(live) }, {
          force: options.force === true,
          protectedArchives: guarded.map(({ change, guard }) => ({ address: change.address, id: change.id, protected_by: guard.address })),
        }),
      }
      : {}),
    changes: sorted,
    summary: summarise(sorted),
    unmanaged: unmanaged(cmp, scope, owned, ignored),
    warnings,
  });
  return { plan, diagnostics, comparison: cmp };
}

/**
 * The plan's `config_digest`, worked out when first read: only a saved plan (--out, --format json)
 * and `apply --plan` read it, a sha-256 over the whole canonical config that a plan only shown
 * does not pay. The getter is made here, not in buildPlan: V8 gives every
 * closure of a function one shared context, so a getter written there kept buildPlan's comparison
 * and live state (every pair) for as long as the plan lived.
 */
function withLazyDigest(desired: DesiredState, before: Pick<Plan, 'format_version' | 'organization_id' | 'environment'>, after: Omit<Plan, 'format_version' | 'organization_id' | 'environment' | 'config_digest'>): Plan {
  let digest: string | undefined;
  return {
    ...before,
    get config_digest() {
      return (digest ??= configDigest(desired));
    },
    ...after,
  };
}

function resendSet(raw: string[] | undefined, cmp: Comparison, diagnostics: Diagnostic[]): Set<string> {
  // Only kinds with hidden details are resent: the rest show every field they send.
  const actions = cmp.pairs.filter((p) => kindOf(p.type).hiddenDetails !== undefined).map((p) => p.address);
  const out = new Set<string>();
  // `all` never includes an adopted action: its live details are unknown, and only a resend
  // that names it sends the config's over them (CONTRACT.md "Ownership").
  const unknown = new Set(cmp.pairs.filter((p) => p.detailsUnknown).map((p) => p.address));
  for (const r of raw ?? []) {
    if (r === 'all') {
      actions.forEach((a) => { if (!unknown.has(a)) out.add(a); });
      continue;
    }
    const parsed = parseAddress(r);
    const address = parsed !== null && kindOf(parsed.type).hiddenDetails !== undefined ? formatAddress(parsed) : null;
    if (address !== null && actions.includes(address)) {
      out.add(address);
      continue;
    }
    diagnostics.push({
      severity: 'error',
      code: 'plan.resend-unknown',
      message: `--resend ${r} is not an action in the config; give an action address such as action["Check balance"], or "all".`,
    });
  }
  return out;
}

/**
 * Changes inside the --target scope. A parser target whose action is created or restored by
 * this plan pulls that change in too: the parser cannot exist without it.
 */
function inScope(all: Change[], scope: TargetScope, warnings: Warning[]): Change[] {
  const kept = all.filter((c) => scope.includes(c.address, parentOf(c)));
  const keptAddresses = new Set(kept.map((c) => c.address));
  for (const c of kept) {
    const parent = parentOf(c);
    if (parent === undefined || keptAddresses.has(parent)) continue;
    const needed = all.find((p) => p.address === parent && (p.op === 'create' || p.op === 'restore'));
    if (!needed) continue;
    kept.push(needed);
    keptAddresses.add(parent);
    const what = needed.op === 'create' ? 'does not exist live yet, so it is created too' : 'is archived live, so it is restored too';
    warnings.push(warning('plan.target-parent', `--target ${c.address}: its action ${parent} ${what}.`, c.address));
  }
  return kept;
}

/** ONE warning for the actions this plan leaves unchanged: their hidden step details could differ unseen. */
function hiddenStepWarning(cmp: Comparison, changes: Change[], scope: TargetScope, recorded: RecordedScope | undefined): Warning | null {
  const updated = new Set(changes.filter((c) => c.op === 'update' || c.op === 'create' || (c.op === 'restore' && c.fields.length > 0)).map((c) => c.address));
  const count = countHiddenStepActions(cmp, scope, updated);
  if (count === 0) return null;
  const what = count === 1 ? '1 unchanged action has' : `${count} unchanged actions have`;
  return warning('plan.hidden-steps',
    `${what} step details the API does not echo (step kind, expect text or description) and ${unrecordedWhy(recorded)}: ` +
    `a change to those alone does not show in this plan. Run \`menuctl apply --resend all\` once to send them and ` +
    `record them (or --resend ADDRESS for some).`,
  );
}

function unmanaged(cmp: Comparison, scope: TargetScope, owned: ReadonlySet<Orphan>, ignored: (address: string) => boolean): Plan['unmanaged'] {
  return cmp.orphans
    .filter((o) => kindOf(o.type).ownedBy === undefined && !owned.has(o) && !ignored(o.address))
    .filter((o) => scope.includes(o.address))
    .map((o) => ({ type: o.type as ResourceType, address: o.address, id: o.live.id }))
    .sort((a, b) => compareChanges({ ...a, op: 'archive' }, { ...b, op: 'archive' }));
}

function summarise(changes: Change[]): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, archive: 0, restore: 0 };
  for (const c of changes) s[c.op]++;
  return s;
}
