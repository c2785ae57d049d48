// The comparison both the plan and the drift report are read from: every desired resource
// paired with its live match (or null), the field differences, and the live resources that
// nothing in the config claims. No I/O, plain data out; a Comparer keeps state between the
// read's calls, and settle() replaces parsers in the list it is handed (by equal ones).

import { actionAddress, appAddress, parserAddress } from '../model/address.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type {
  ResolvedApp, SourceLoc, DesiredAction, DesiredApp, DesiredParser, DesiredState, LiveAction, LiveApp, LiveParser, LiveState, RecordedScope, ResolvedParser,
} from '../model/types.js';
import { resolveParser } from '../model/canonical.js';
import { resolveAction } from '../model/kinds/action.js';
import { resolveApp } from '../model/kinds/app.js';
import { SettledLiveParser } from '../model/settled-parser.js';
import { KINDS } from '../model/kinds/index.js';
import { recordedAction } from '../record/record.js';
import { diffAction, diffApp, diffParser, diffRecordedAction, NO_FIELD_CHANGES } from './diff.js';
import { matchAll, type MatchResult, type Via, type Wanted } from './match.js';
import { operatorNamer, resolveActionOperators } from './operators.js';
import type { ResolvedAction, FieldChange } from './types.js';

interface PairBase {
  address: string;
  via?: Via;
  fields: FieldChange[];
  /** Kinds with hidden details only (model/kinds/ `hiddenDetails`): see ActionPair. */
  recorded?: boolean;
  detailsUnknown?: true;
}
export type ActionPair = PairBase & {
  type: 'action';
  desired: DesiredAction;
  spec: ResolvedAction;
  live: LiveAction | null;
  /** The record holds what was applied to this live action (so hidden step details are compared). */
  recorded: boolean;
  /** Adopted (export or import): the record holds its id, and its hidden step details are unknown. */
  detailsUnknown?: true;
};
export type ParserPair = PairBase & {
  type: 'parser';
  parent: string;
  desired: DesiredParser;
  spec: ResolvedParser;
  live: LiveParser | null;
  /** The owning action's live public id; null when the action has no live match. */
  actionId: string | null;
};
export type AppPair = PairBase & { type: 'app'; desired: DesiredApp; spec: ResolvedApp; live: LiveApp | null };
export type Pair = ActionPair | ParserPair | AppPair;

/**
 * The pair of a parser that arrived equal to its config (model/settled-parser.ts), matched by its
 * category, with no field to change: no change can come of it. It holds the settled live parser
 * and its action's pair, and works out the rest when read (its address, its resolved form), not
 * the pair, its resolved form and its address string of every parser of a no-change plan. It reads as the plain pair would, field for field.
 */
export class SettledParserPair {
  constructor(readonly live: SettledLiveParser, private readonly action: ActionPair) {}

  get type(): 'parser' {
    return 'parser';
  }

  get address(): string {
    return parserAddress(this.action.desired.name, this.live.config.category);
  }

  get parent(): string {
    return this.action.address;
  }

  get desired(): DesiredParser {
    return this.live.config;
  }

  get spec(): ResolvedParser {
    return resolveParser(this.live.config);
  }

  /** Its action is live: the parser was read from it. */
  get actionId(): string {
    return this.action.live!.id;
  }

  get fields(): FieldChange[] {
    return NO_FIELD_CHANGES;
  }

  /** Matched by its category. */
  get via(): Via {
    return 'name';
  }
}

/**
 * The pair of a parser with no live match: it is to be created. It holds the config's parser, its
 * address, its action's address and live id (null when the action is created too), and works out
 * its resolved form when read, not the plain pair and its resolved form of every parser of a plan
 * from empty. Not its action's pair: a
 * create is a view of this pair for as long as the plan lives, and that would keep every action
 * pair and live action. It reads as the plain pair would, field for field.
 */
export class CreatedParserPair {
  constructor(readonly desired: DesiredParser, readonly address: string, readonly parent: string, readonly actionId: string | null) {}

  get type(): 'parser' {
    return 'parser';
  }

  get spec(): ResolvedParser {
    return resolveParser(this.desired);
  }

  get live(): null {
    return null;
  }

  get fields(): FieldChange[] {
    return NO_FIELD_CHANGES;
  }
}

/** Active live resources no desired resource claims. Parsers: owned by an action in the config. */
export type Orphan =
  | { type: 'action'; address: string; live: LiveAction }
  | { type: 'parser'; address: string; parent: string; live: LiveParser }
  | { type: 'app'; address: string; live: LiveApp };

export interface Comparison {
  pairs: Pair[];
  orphans: Orphan[];
  diagnostics: Diagnostic[];
  /** Apps whose record line names a live app of another identity: nothing is planned for them. */
  disagrees: Set<string>;
}

const wanted = (r: { id?: string; loc?: SourceLoc; renamed_from?: string }, address: string, key: string): Wanted => ({
  address,
  key,
  ...(r.id !== undefined ? { pinnedId: r.id } : {}),
  ...(r.renamed_from !== undefined ? { renamedFrom: r.renamed_from } : {}),
  from: r,
});

/** `recorded`: the applied-state record for this API, when one was read. */
export function compareStates(desired: DesiredState, live: LiveState, recorded?: RecordedScope): Comparison {
  return new Comparer(desired, live, recorded).finish(live, recorded);
}

/** What the comparison needs of the live state before any parser is read. */
export type LiveLists = Pick<LiveState, 'actions' | 'operators'>;

/** One desired action's share of a Comparison: its pairs, the parser orphans under it, its diagnostics. */
interface ActionPart {
  diagnostics: Diagnostic[];
  pairs: Pair[];
  orphans: Orphan[];
}

/** A part compared early, with the live parser list it was compared with. */
type EarlyPart = ActionPart & { pool: readonly LiveParser[] };

/** Nothing: one shared list for the parts that have no diagnostics or orphans (nearly all). */
const NONE = Object.freeze([]) as unknown as never[];

/**
 * A part as held until finish(): lists sized exactly (a list grown by push keeps room for ~17),
 * and the shared NONE for an empty one.
 */
function compact(part: ActionPart): ActionPart {
  return {
    diagnostics: part.diagnostics.length === 0 ? NONE : part.diagnostics,
    pairs: part.pairs.slice(),
    orphans: part.orphans.length === 0 ? NONE : part.orphans,
  };
}

/**
 * compareStates in two halves, so that a plan compares each action as its parsers arrive, while
 * the rest are still being read, rather than all of them after the last answer.
 * Built from the live lists (they come first); `parsersOf` is given each action's parsers as
 * read; `finish` gives exactly what compareStates gives for the whole live state, using an early
 * part only where its inputs are the very ones finish would use (else it compares again).
 * Inputs are compared by identity: the desired state, the lists and the record scope must not
 * change in place between construction and finish() (the pipeline never changes them).
 * `recorded`: the applied-state record for this API, when one was read (finish() is given it again).
 */
export class Comparer {
  private readonly nameOf: (id: number) => string;
  private readonly actions: MatchResult<LiveAction>;
  /** Live action id -> index of the desired action it matched. */
  private readonly indexOf = new Map<string, number>();
  /** Per desired action: its part, compared early, and the parser list it was compared with. */
  private readonly early: (EarlyPart | undefined)[];

  constructor(private readonly desired: DesiredState, private readonly lists: LiveLists, private readonly recorded?: RecordedScope) {
    this.nameOf = operatorNamer(lists.operators);
    this.actions = matchAll<LiveAction>({
      kind: 'action',
      keyLabel: KINDS.action.keyLabel,
      wanted: desired.actions.map((a) => wanted(a, actionAddress(a.name), a.name)),
      pool: lists.actions,
      keyOf: KINDS.action.key,
    });
    this.actions.outcomes.forEach((o, i) => {
      if (o.ok && o.live) this.indexOf.set(o.live.id, i);
    });
    this.early = new Array(desired.actions.length).fill(undefined);
  }

  /**
   * As one live action's parsers arrive, before anything keeps them: each that equals, field for
   * field, the one parser of the matched desired action with its category is replaced in place by
   * its settled form (model/settled-parser.ts), which reads as the same parser. Only for an action
   * whose parsers match by category alone (no pinned id, no rename: those may claim another live
   * parser) and for a category that neither side repeats, so the matching that follows is the
   * same as for the parsers as read.
   */
  settle(actionId: string, parsers: LiveParser[]): void {
    const i = this.indexOf.get(actionId);
    if (i === undefined) return;
    const wanted = this.desired.actions[i]!.parsers;
    const byKey = new Map<string, DesiredParser | null>();
    for (const p of wanted) {
      if (p.id !== undefined || p.renamed_from !== undefined) return;
      byKey.set(p.category, byKey.has(p.category) ? null : p);
    }
    const liveKeys = new Map<string, number>();
    for (const p of parsers) liveKeys.set(p.category, (liveKeys.get(p.category) ?? 0) + 1);
    for (let j = 0; j < parsers.length; j++) {
      const p = parsers[j]!;
      const d = byKey.get(p.category);
      if (!d || liveKeys.get(p.category) !== 1) continue;
      const settled = SettledLiveParser.from(p, d, actionId);
      if (settled) parsers[j] = settled;
    }
  }

  /** The parsers read for one live action: compares the desired action it matched, when that is safe now. */
  parsersOf(actionId: string, parsers: LiveParser[]): void {
    const i = this.indexOf.get(actionId);
    if (i === undefined) return;
    // A pinned parser id missing here is looked up among all the parsers, not read yet: leave
    // this action to finish(). (A list holding another action's parser is caught there: finish()
    // pools parsers by their action_id, and uses an early part only for the very same pool.)
    const ids = new Set(parsers.map((p) => p.id));
    if (this.desired.actions[i]!.parsers.some((p) => p.id !== undefined && !ids.has(p.id))) return;
    try {
      const pool = parsers.slice(); // what finish() checks against, whatever becomes of the caller's array (sized exactly, unlike a spread)
      this.early[i] = { ...compact(this.actionPart(i, pool, null)), pool };
    } catch {
      // finish() compares this action again and meets the same problem where it always did.
    }
  }

  /** How many actions were compared early (so far). */
  get comparedEarly(): number {
    return this.early.filter((e) => e !== undefined).length;
  }

  finish(live: LiveState, recorded?: RecordedScope): Comparison {
    const l = this.lists;
    if (live.actions !== l.actions || live.operators !== l.operators || recorded?.scope !== this.recorded?.scope) {
      return new Comparer(this.desired, live, recorded).finish(live, recorded);
    }
    const out: Comparison = { pairs: [], orphans: [], diagnostics: [...this.actions.diagnostics], disagrees: new Set() };
    const usable = this.usableEarly(live.parsers);
    const liveIdOf = (i: number): string | undefined => {
      const outcome = this.actions.outcomes[i]!;
      return outcome.ok ? outcome.live?.id : undefined;
    };
    // Grouped only for the actions compared again: grouping every parser was a list per action
    // and a map of them, held at the plan's peak.
    const again = new Set<string>();
    this.desired.actions.forEach((_, i) => {
      const id = liveIdOf(i);
      if (id !== undefined && usable[i] !== 1) again.add(id);
    });
    const parsersByAction = groupBy(again.size === 0 ? [] : live.parsers.filter((p) => again.has(p.action_id)), (p) => p.action_id);
    const all = live.pinned_elsewhere ? [...live.parsers, ...live.pinned_elsewhere] : live.parsers;
    this.desired.actions.forEach((_, i) => {
      const actionId = liveIdOf(i);
      const early = this.early[i];
      this.early[i] = undefined; // its lists are copied into out below: let them go as we pass
      const part = early !== undefined && actionId !== undefined && usable[i] === 1
        ? early
        : this.actionPart(i, actionId === undefined ? [] : (parsersByAction.get(actionId) ?? []), all);
      out.diagnostics.push(...part.diagnostics);
      out.pairs.push(...part.pairs);
      out.orphans.push(...part.orphans);
    });

    const pinned = new Set(this.desired.apps.flatMap((a) => (a.id !== undefined ? [a.id] : [])));
    const apps = matchAll<LiveApp>({
      kind: 'app',
      keyLabel: KINDS.app.keyLabel,
      wanted: this.desired.apps.map((a) => {
        const w = wanted(a, appAddress(a.package_name), a.package_name);
        const other = recordDisagrees(w, live, recorded, pinned);
        if (other !== null) {
          out.disagrees.add(w.address);
          out.diagnostics.push(disagreement(w, other, recorded!.file));
          return w;
        }
        return recordedPin(w, live, recorded, pinned);
      }),
      pool: live.apps,
      keyOf: KINDS.app.key,
    });
    out.diagnostics.push(...apps.diagnostics);
    this.desired.apps.forEach((app, i) => {
      const outcome = apps.outcomes[i]!;
      if (!outcome.ok) return;
      const spec: ResolvedApp = resolveApp(app);
      const fields = outcome.live ? diffApp(outcome.live, spec) : NO_FIELD_CHANGES;
      out.pairs.push({ type: 'app', address: appAddress(app.package_name), desired: app, spec, live: outcome.live, fields, ...via(outcome.via) });
    });

    for (const a of live.actions) {
      if (a.archived_at === null && !this.actions.claimed.has(a.id)) out.orphans.push({ type: 'action', address: actionAddress(a.name), live: a });
    }
    for (const a of live.apps) {
      if (a.archived_at === null && !apps.claimed.has(a.id)) out.orphans.push({ type: 'app', address: appAddress(a.package_name), live: a });
    }
    return out;
  }

  /**
   * Per desired action, 1 when its early part was compared with exactly the live parsers that
   * name its live action, the very objects in the same order, as finish() would group them.
   */
  private usableEarly(parsers: readonly LiveParser[]): Uint8Array {
    const n = this.early.length;
    const usable = new Uint8Array(n);
    const seen = new Uint32Array(n);
    for (let i = 0; i < n; i++) if (this.early[i] !== undefined) usable[i] = 1;
    for (const p of parsers) {
      const i = this.indexOf.get(p.action_id);
      if (i === undefined) continue;
      if (this.early[i]?.pool[seen[i]!] !== p) usable[i] = 0;
      seen[i]!++;
    }
    for (let i = 0; i < n; i++) if (this.early[i]?.pool.length !== seen[i]) usable[i] = 0;
    return usable;
  }

  /** Desired action i against its live match and that action's parsers (`all`: every live parser, for pins found elsewhere). */
  private actionPart(i: number, pool: LiveParser[], all: LiveParser[] | null): ActionPart {
    const action = this.desired.actions[i]!;
    const outcome = this.actions.outcomes[i]!;
    const ops = resolveActionOperators(action, this.lists.operators);
    const part: ActionPart = { diagnostics: [...ops.diagnostics], pairs: [], orphans: [] };
    if (!outcome.ok) return part;
    const spec: ResolvedAction = resolveAction(action, ops.ids);
    const address = actionAddress(action.name);
    const recorded = outcome.live ? recordedAction(this.recorded?.scope, address, outcome.live.id) : undefined;
    const visible = outcome.live ? diffAction(outcome.live, spec, this.nameOf) : NO_FIELD_CHANGES;
    const fields = recorded && recorded.details !== 'unknown' ? [...visible, ...diffRecordedAction(recorded, spec)] : visible;
    const pair: ActionPair = {
      type: 'action', address, desired: action, spec, live: outcome.live, fields, recorded: recorded !== undefined,
      ...(recorded?.details === 'unknown' ? { detailsUnknown: true as const } : {}), ...via(outcome.via),
    };
    part.pairs.push(pair);
    compareParsers(part, { action, actionPair: pair, address, liveAction: outcome.live, pool, allParsers: all });
    return part;
  }
}


/**
 * An app the record knows is matched by its recorded id, like a pin (the spec has no apps
 * index to match it by package_name), when that id is live; an `id:` in the config wins, also
 * one on another app (`pinned`: every id the config pins): an app renamed through its pin with
 * its old package_name given to a new app in the same change must not hand the new app the
 * renamed one's id (matchAll trusts pins to be unique, so both would match one live app).
 */
function recordedPin(w: Wanted, live: LiveState, recorded: RecordedScope | undefined, pinned: ReadonlySet<string>): Wanted {
  if (w.pinnedId !== undefined) return w;
  const apps = recorded?.scope?.apps;
  const id = apps?.get(w.address)?.id;
  const app = id === undefined || id === null || pinned.has(id) ? undefined : live.apps.find((a) => a.id === id);
  if (!app) return w;
  // One id under several addresses (a record written before a rename moved the line): only the
  // address that is the live app's package_name may take it, so an app renamed through its pin
  // is never matched by its old package_name as well (two config apps on one live id).
  const shared = [...apps!.values()].filter((a) => a.id === id).length > 1;
  if (shared && KINDS.app.key(app) !== w.key) return w;
  return { ...w, pinnedId: id! };
}

/**
 * The live app a record line names when it is another app (another package_name): the record was
 * edited, or the app changed outside menuctl. Such an id is never trusted:
 * taking it would rename another team's app and re-point its webhook. A config `id:` decides.
 */
function recordDisagrees(w: Wanted, live: LiveState, recorded: RecordedScope | undefined, pinned: ReadonlySet<string>): LiveApp | null {
  if (w.pinnedId !== undefined) return null;
  const id = recorded?.scope?.apps.get(w.address)?.id;
  if (id === undefined || id === null || pinned.has(id)) return null;
  const app = live.apps.find((a) => a.id === id);
  if (!app || KINDS.app.key(app) === w.key) return null;
  // A record written before a rename moved the line may hold the id under both names (recordedPin).
  const shared = [...recorded!.scope!.apps.values()].filter((a) => a.id === id).length > 1;
  return shared ? null : app;
}

function disagreement(w: Wanted, app: LiveApp, file: string): Diagnostic {
  return {
    severity: 'warning',
    code: 'plan.record-disagrees',
    address: w.address,
    ...(w.from?.loc ? { loc: w.from.loc } : {}),
    message:
      `${file} holds ${w.address} as live app ${JSON.stringify(app.id)}, but that app's package_name is ${JSON.stringify(app.package_name)}: ` +
      `the record disagrees with the API (edited by hand, or the app changed outside menuctl), so nothing is planned for ${w.address}. ` +
      `If ${JSON.stringify(app.id)} is not this app, run \`menuctl state rm '${w.address}'\` (and \`menuctl import\` the right id); if it is, pin it with \`id: "${app.id}"\`.`,
  };
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

/**
 * Every live parser of the action is one settled from a distinct desired parser of it, one for
 * each (compare.ts settle: no pin or rename in the action, a category neither side repeats), and
 * the pool is in the desired order, so the pairs come out as matchAll would give them.
 */
function allSettled(c: ParserContext): boolean {
  const wanted = c.action.parsers;
  if (c.pool.length !== wanted.length || c.liveAction === null) return false;
  for (let i = 0; i < wanted.length; i++) {
    const live = c.pool[i];
    if (!(live instanceof SettledLiveParser) || live.config !== wanted[i] || live.action_id !== c.liveAction.id) return false;
  }
  return true;
}

interface ParserContext {
  action: DesiredAction;
  actionPair: ActionPair;
  address: string;
  liveAction: LiveAction | null;
  /** The live parsers of liveAction. */
  pool: LiveParser[];
  /** Every live parser, to name the owner of a pinned id found elsewhere; null when not read yet. */
  allParsers: LiveParser[] | null;
}

function compareParsers(out: ActionPart, c: ParserContext): void {
  if (allSettled(c)) {
    // What matchAll and the diff would give, by construction: each desired parser matches by its
    // category the one live parser settled from it, nothing differs, nothing is left over.
    for (const live of c.pool as SettledLiveParser[]) out.pairs.push(new SettledParserPair(live, c.actionPair));
    return;
  }
  const actionId = c.liveAction?.id ?? null;
  // A live parser belongs to the action whose public id is its action_id.
  const pool = c.pool;
  const result = matchAll<LiveParser>({
    kind: 'parser',
    keyLabel: KINDS.parser.keyLabel,
    wanted: c.action.parsers.map((p) => wanted(p, parserAddress(c.action.name, p.category), p.category)),
    pool,
    keyOf: KINDS.parser.key,
    elsewhere: (id) => {
      if (c.allParsers === null) throw new Error('a pinned parser id outside its action is looked up once every parser is read');
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
    // A parser settled from this very desired parser reads as it (model/settled-parser.ts): no
    // field differs, by construction.
    if (outcome.live instanceof SettledLiveParser && outcome.live.config === parser && outcome.via === 'name') {
      out.pairs.push(new SettledParserPair(outcome.live, c.actionPair));
      return;
    }
    if (outcome.live === null) {
      out.pairs.push(new CreatedParserPair(parser, parserAddress(c.action.name, parser.category), c.address, actionId));
      return;
    }
    const spec: ResolvedParser = resolveParser(parser);
    const fields = diffParser(outcome.live, spec);
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
