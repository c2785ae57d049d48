// The comparison both the plan and the drift report are read from: every desired resource
// paired with its live match (or null), the field differences, and the live resources that
// nothing in the config claims. Pure: plain data in, plain data out.

import { actionAddress, appAddress, parserAddress } from '../model/address.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type {
  AppSpec, DesiredAction, DesiredApp, DesiredParser, DesiredState, LiveAction, LiveApp, LiveParser, LiveState, ParserSpec,
} from '../model/types.js';
import { desiredParserSpec } from '../model/canonical.js';
import { KINDS } from '../model/kinds.js';
import { recordedAction } from '../record/record.js';
import { diffAction, diffApp, diffParser, diffRecordedAction } from './diff.js';
import { matchAll, type Via, type Wanted } from './match.js';
import { operatorNamer, resolveActionOperators } from './operators.js';
import type { ResolvedAction, FieldChange } from './types.js';

interface PairBase {
  address: string;
  via?: Via;
  fields: FieldChange[];
}
export type ActionPair = PairBase & {
  type: 'action';
  desired: DesiredAction;
  spec: ResolvedAction;
  live: LiveAction | null;
  /** The record holds what was applied to this live action (so hidden step details are compared). */
  recorded: boolean;
};
export type ParserPair = PairBase & {
  type: 'parser';
  parent: string;
  desired: DesiredParser;
  spec: ParserSpec;
  live: LiveParser | null;
  /** The owning action's live public id; null when the action has no live match. */
  actionId: string | null;
};
export type AppPair = PairBase & { type: 'app'; desired: DesiredApp; spec: AppSpec; live: LiveApp | null };
export type Pair = ActionPair | ParserPair | AppPair;

/** Active live resources no desired resource claims. Parsers: owned by an action in the config. */
export type Orphan =
  | { type: 'action'; address: string; live: LiveAction }
  | { type: 'parser'; address: string; parent: string; live: LiveParser }
  | { type: 'app'; address: string; live: LiveApp };

export interface Comparison {
  pairs: Pair[];
  orphans: Orphan[];
  diagnostics: Diagnostic[];
}

const wanted = (r: { id?: string; loc?: Wanted['loc']; renamed_from?: string }, address: string, key: string): Wanted => ({
  address,
  key,
  ...(r.id !== undefined ? { pinnedId: r.id } : {}),
  ...(r.renamed_from !== undefined ? { renamedFrom: r.renamed_from } : {}),
  ...(r.loc ? { loc: r.loc } : {}),
});

export function compareStates(desired: DesiredState, live: LiveState): Comparison {
  const out: Comparison = { pairs: [], orphans: [], diagnostics: [] };
  const nameOf = operatorNamer(live.operators);

  const actions = matchAll<LiveAction>({
    kind: 'action',
    keyLabel: KINDS.action.keyLabel,
    wanted: desired.actions.map((a) => wanted(a, actionAddress(a.name), a.name)),
    pool: live.actions,
    keyOf: KINDS.action.key,
  });
  out.diagnostics.push(...actions.diagnostics);
  const parsersByAction = groupBy(live.parsers, (p) => p.action_id);
  desired.actions.forEach((action, i) => {
    const outcome = actions.outcomes[i]!;
    const ops = resolveActionOperators(action, live.operators);
    out.diagnostics.push(...ops.diagnostics);
    if (!outcome.ok) return;
    const spec: ResolvedAction = {
      name: action.name,
      root_code: action.root_code,
      transport_type: action.transport_type,
      operator_ids: ops.ids,
      steps: action.steps,
    };
    const address = actionAddress(action.name);
    const recorded = outcome.live ? recordedAction(live.recorded?.scope, address, outcome.live.id) : undefined;
    const fields = outcome.live ? diffAction(outcome.live, spec, nameOf) : [];
    if (recorded) fields.push(...diffRecordedAction(recorded, spec));
    out.pairs.push({ type: 'action', address, desired: action, spec, live: outcome.live, fields, recorded: recorded !== undefined, ...via(outcome.via) });
    compareParsers(out, { action, address, liveAction: outcome.live, allParsers: live.parsers, parsersByAction });
  });

  const apps = matchAll<LiveApp>({
    kind: 'app',
    keyLabel: KINDS.app.keyLabel,
    wanted: desired.apps.map((a) => recordedPin(wanted(a, appAddress(a.package_name), a.package_name), live)),
    pool: live.apps,
    keyOf: KINDS.app.key,
  });
  out.diagnostics.push(...apps.diagnostics);
  desired.apps.forEach((app, i) => {
    const outcome = apps.outcomes[i]!;
    if (!outcome.ok) return;
    const spec: AppSpec = { name: app.name, package_name: app.package_name, webhook_url: app.webhook_url };
    const fields = outcome.live ? diffApp(outcome.live, spec) : [];
    out.pairs.push({ type: 'app', address: appAddress(app.package_name), desired: app, spec, live: outcome.live, fields, ...via(outcome.via) });
  });

  for (const l of live.actions) {
    if (l.archived_at === null && !actions.claimed.has(l.id)) out.orphans.push({ type: 'action', address: actionAddress(l.name), live: l });
  }
  for (const l of live.apps) {
    if (l.archived_at === null && !apps.claimed.has(l.id)) out.orphans.push({ type: 'app', address: appAddress(l.package_name), live: l });
  }
  return out;
}

/**
 * An app the record knows is matched by its recorded id, like a pin (the spec has no apps
 * index to match it by package_name), when that id is live; an `id:` in the config wins.
 */
function recordedPin(w: Wanted, live: LiveState): Wanted {
  if (w.pinnedId !== undefined) return w;
  const id = live.recorded?.scope?.apps.get(w.address)?.id;
  if (id === undefined || id === null || !live.apps.some((a) => a.id === id)) return w;
  return { ...w, pinnedId: id };
}

function groupBy<T>(list: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const t of list) {
    const k = key(t);
    const group = map.get(k);
    if (group) group.push(t);
    else map.set(k, [t]);
  }
  return map;
}

const via = (v: Via | undefined): { via?: Via } => (v ? { via: v } : {});

interface ParserContext {
  action: DesiredAction;
  address: string;
  liveAction: LiveAction | null;
  allParsers: LiveParser[];
  parsersByAction: Map<string, LiveParser[]>;
}

function compareParsers(out: Comparison, c: ParserContext): void {
  const actionId = c.liveAction?.id ?? null;
  // A live parser belongs to the action whose public id is its action_id.
  const pool = actionId === null ? [] : (c.parsersByAction.get(actionId) ?? []);
  const result = matchAll<LiveParser>({
    kind: 'parser',
    keyLabel: KINDS.parser.keyLabel,
    wanted: c.action.parsers.map((p) => wanted(p, parserAddress(c.action.name, p.category), p.category)),
    pool,
    keyOf: KINDS.parser.key,
    elsewhere: (id) => {
      const found = c.allParsers.find((p) => p.id === id);
      if (!found) return null;
      const here = actionId === null ? 'which does not exist live yet' : `(id ${JSON.stringify(actionId)})`;
      return `pinned parser id ${JSON.stringify(id)} belongs to the action with id ${JSON.stringify(found.action_id)}, not to ${c.address} ${here}; a parser cannot move between actions: fix the id or move the parser in the config.`;
    },
  });
  out.diagnostics.push(...result.diagnostics);
  c.action.parsers.forEach((parser, i) => {
    const outcome = result.outcomes[i]!;
    if (!outcome.ok) return;
    const spec: ParserSpec = desiredParserSpec(parser);
    const fields = outcome.live ? diffParser(outcome.live, spec) : [];
    out.pairs.push({
      type: 'parser',
      address: parserAddress(c.action.name, parser.category),
      parent: c.address,
      desired: parser,
      spec,
      live: outcome.live,
      actionId,
      fields,
      ...via(outcome.via),
    });
  });
  for (const p of pool) {
    if (p.archived_at === null && !result.claimed.has(p.id)) {
      out.orphans.push({ type: 'parser', address: parserAddress(c.action.name, p.category), parent: c.address, live: p });
    }
  }
}
