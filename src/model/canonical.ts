// Canonical forms: what the planner compares. Both sides (config and API) are reduced to the
// fields menuctl manages, with the server's defaults filled in and server-generated data
// (ids, timestamps, transactions_count, description) dropped, so a difference is a real one.
// Pure: no I/O.

import type {
  ResolvedAction, DesiredState, LiveAction, LiveApp, LiveParser, OperatorRef, ParserSpec, Step, StepDetails, AppSpec,
} from './types.js';
import { stepValue } from './payload.js';

export interface CanonicalAction {
  name: string;
  root_code: string;
  transport_type: string;
  /**
   * Operator NAMES, sorted, duplicates kept: the API echoes only names, and names are not
   * unique ("MTN" is several operators), so the only honest comparison is a sorted multiset.
   */
  operators: string[];
  /** Step values in order: the API echoes nothing else of a step (spec: Action.steps). */
  steps: string[];
}

export interface CanonicalParser {
  status: string;
  category: string;
  target_type: string;
  sender: string | null;
  regex: string;
  user_message: string;
}

export interface CanonicalApp {
  name: string;
  package_name: string;
  webhook_url: string | null;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// "Null or empty for ussd parsers" (spec: Parser.sender): '' and null mean the same thing.
const nullIfEmpty = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' ? null : v);

export function canonicalLiveAction(live: LiveAction): CanonicalAction {
  return {
    name: live.name,
    root_code: live.root_code,
    transport_type: live.transport_type,
    operators: [...live.operators].sort(byCodeUnit),
    steps: [...live.steps],
  };
}

/** `nameOf` maps a world operator id to the name the API would echo for it. */
export function canonicalDesiredAction(desired: ResolvedAction, nameOf: (id: number) => string): CanonicalAction {
  return {
    name: desired.name,
    root_code: desired.root_code,
    transport_type: desired.transport_type,
    operators: desired.operator_ids.map(nameOf).sort(byCodeUnit),
    steps: desired.steps.map(stepValue),
  };
}

/**
 * The parser as the API should hold it, from the config's values as written: a ussd parser has
 * no sender (spec: "Null or empty for ussd parsers"), whatever the config says (the check warns).
 */
export function desiredParserSpec(p: ParserSpec): ParserSpec {
  return {
    category: p.category,
    status: p.status,
    target_type: p.target_type,
    sender: p.target_type === 'sms' ? p.sender : null,
    regex: p.regex,
    user_message: p.user_message,
  };
}

export function canonicalParser(p: LiveParser | ParserSpec): CanonicalParser {
  return {
    status: p.status,
    category: p.category,
    // A parser created without target_type is ussd, and without user_message has '' (spec: Parser).
    target_type: p.target_type ?? 'ussd',
    sender: nullIfEmpty(p.sender),
    regex: p.regex,
    user_message: p.user_message ?? '',
  };
}

export function canonicalApp(a: LiveApp | AppSpec): CanonicalApp {
  return {
    name: a.name,
    package_name: a.package_name,
    // An app without a webhook has null; '' would clear it the same way.
    webhook_url: nullIfEmpty(a.webhook_url),
  };
}

/** True when the step carries something the API does not echo (its kind, expect text, description). */
export function hasHiddenStepDetails(step: Step): boolean {
  if (step.kind === 'variable' || step.kind === 'select') return true;
  if (step.description !== undefined && step.description !== '') return true;
  return step.kind === 'press' && step.expect !== undefined && step.expect !== '';
}

// ---- the desired state as one canonical value (for the plan's config_digest) ----

export function canonicalStep(step: Step): StepDetails {
  // Keys in the order kind, value, expect, name, description: config digests depend on it.
  const base = { kind: step.kind } as StepDetails;
  if (step.kind === 'press') {
    base.value = step.value;
    base.expect = step.expect ?? null;
  }
  if (step.kind === 'variable' || step.kind === 'select') base.name = step.name;
  base.description = step.description ?? '';
  return base;
}

// Operator refs keep their form (id or name): the digest is of the config, not of the catalog.
const refKey = (r: OperatorRef): string => JSON.stringify(r.ref);

/**
 * The desired state with everything that cannot change a plan removed: source locations,
 * file names, parser fixtures, key order, and the order of resources (plans are sorted by
 * address, so moving an action to another file or reordering a list changes nothing).
 * Step order is kept: it is meaningful.
 */
export function canonicalDesiredState(state: DesiredState): unknown {
  const actions = [...state.actions]
    .sort((a, b) => byCodeUnit(a.name, b.name))
    .map((a) => ({
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
          ...canonicalParser(desiredParserSpec(p)),
          id: p.id ?? null,
          protected: p.protected === true,
          renamed_from: p.renamed_from ?? null,
        })),
    }));
  const apps = [...state.apps]
    .sort((a, b) => byCodeUnit(a.package_name, b.package_name))
    .map((a) => ({ ...canonicalApp(a), id: a.id ?? null, protected: a.protected === true }));
  return { organization_id: state.organization_id ?? null, actions, apps };
}
