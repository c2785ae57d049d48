// Identity matching: which live resource each desired resource is. The rules (docs/planning.md):
//   1. a pinned `id:` wins (and must exist);
//   2. otherwise the identity key (action name, parser category, app package_name), and for
//      `renamed_from:` the old key too, among live resources no other desired one claimed;
//   3. active candidates are preferred; archived ones count only when no active one exists;
//   4. two candidates at the chosen tier is an error that names them and suggests pinning.
// Desired resources without renamed_from match before those with it, so a stale
// `renamed_from: Old` never steals the live "Old" that another desired resource is.

import type { Diagnostic } from '../model/diagnostic.js';
import type { SourceLoc } from '../model/types.js';

export interface Liveish {
  id: string;
  archived_at: string | null;
}

export interface Wanted {
  address: string;
  key: string;
  renamedFrom?: string;
  pinnedId?: string;
  /**
   * The desired resource, for the location of a finding. Its `loc` is read only when one is
   * reported: read here for every resource, it made a location object per resource.
   */
  from?: { readonly loc?: SourceLoc };
}

export type Via = 'id' | 'name' | 'renamed_from';

/** How one wanted resource matched (its live one, or null for none); `ok: false` when a diagnostic says why not. */
export type Match<L> = { ok: true; live: L | null; via?: Via } | { ok: false };

export interface MatchOptions<L extends Liveish> {
  /** `action`, `parser`, `app`: used in messages. */
  kind: string;
  /** `name`, `category`, `package_name`: used in messages. */
  keyLabel: string;
  wanted: Wanted[];
  /** Live resources the wanted ones may match (for parsers: those of the matched action). */
  pool: L[];
  keyOf: (live: L) => string;
  /** For a pinned id absent from the pool: a message when it exists elsewhere, else null. */
  elsewhere?: (id: string) => string | null;
}

export interface MatchResult<L> {
  /** Aligned with `wanted`. */
  outcomes: Match<L>[];
  /** Ids of live resources taken by a desired one (including candidates of failed matches). */
  claimed: Set<string>;
  diagnostics: Diagnostic[];
}

const q = JSON.stringify;

export function matchAll<L extends Liveish>(o: MatchOptions<L>): MatchResult<L> {
  const claimed = new Set<string>();
  const outcomes: (Match<L> | undefined)[] = new Array(o.wanted.length).fill(undefined);
  const diagnostics: Diagnostic[] = [];
  const fail = (i: number, code: string, message: string): void => {
    const w = o.wanted[i]!;
    const loc = w.from?.loc;
    diagnostics.push({ severity: 'error', code, message, address: w.address, ...(loc ? { loc } : {}) });
    outcomes[i] = { ok: false };
  };

  // Keys and pins are unique in a validated config (config/checks/duplicates.ts, the one place
  // that rule lives); buildPlan is only ever given one.
  o.wanted.forEach((w, i) => {
    if (w.pinnedId === undefined) return;
    const live = o.pool.find((l) => l.id === w.pinnedId);
    if (live) {
      claimed.add(live.id);
      outcomes[i] = { ok: true, live, via: 'id' };
      return;
    }
    const elsewhere = o.elsewhere?.(w.pinnedId) ?? null;
    if (elsewhere !== null) fail(i, 'plan.pinned-id-elsewhere', elsewhere);
    else fail(i, 'plan.pinned-id-not-found', `pinned id ${q(w.pinnedId)} does not exist live; fix the id, or remove \`id:\` to match by ${o.keyLabel}.`);
  });

  const byKey = new Map<string, L[]>();
  for (const l of o.pool) {
    const k = o.keyOf(l);
    const list = byKey.get(k);
    if (list) list.push(l);
    else byKey.set(k, [l]);
  }
  for (const renames of [false, true]) {
    o.wanted.forEach((w, i) => {
      if (outcomes[i] || (w.renamedFrom !== undefined) !== renames) return;
      matchByKey(o, { i, claimed, fail, outcomes, byKey });
    });
  }
  return { outcomes: outcomes as Match<L>[], claimed, diagnostics };
}

interface KeyState<L> {
  i: number;
  claimed: Set<string>;
  fail: (i: number, code: string, message: string) => void;
  outcomes: (Match<L> | undefined)[];
  /** The pool indexed by identity key, in pool order. */
  byKey: Map<string, L[]>;
}

function matchByKey<L extends Liveish>(o: MatchOptions<L>, s: KeyState<L>): void {
  const w = o.wanted[s.i]!;
  const oldKey = w.renamedFrom !== undefined && w.renamedFrom !== w.key ? w.renamedFrom : undefined;
  const keyed = [...(s.byKey.get(w.key) ?? []), ...(oldKey !== undefined ? (s.byKey.get(oldKey) ?? []) : [])];
  const candidates = keyed.filter((l) => !s.claimed.has(l.id));
  const active = candidates.filter((l) => l.archived_at === null);
  const tier = active.length > 0 ? active : candidates;
  if (tier.length === 0) {
    s.outcomes[s.i] = { ok: true, live: null };
    return;
  }
  const tierName = active.length > 0 ? 'active' : 'archived';
  const underNew = tier.filter((l) => o.keyOf(l) === w.key);
  const underOld = tier.filter((l) => o.keyOf(l) !== w.key);
  // Candidates of a failed match stay claimed: they must not show up as unmanaged (or be pruned).
  if (tier.length > 1) for (const l of tier) s.claimed.add(l.id);
  if (underNew.length > 0 && underOld.length > 0) {
    s.fail(
      s.i,
      'plan.rename-conflict',
      `both the new ${o.keyLabel} ${q(w.key)} (id ${ids(underNew)}) and the old one ${q(oldKey)} (id ${ids(underOld)}) ` +
        `exist live (${tierName}); if the rename already happened remove \`renamed_from:\`, otherwise pin the one to keep with \`id:\`.`,
    );
    return;
  }
  if (tier.length > 1) {
    const key = underNew.length > 0 ? w.key : oldKey!;
    s.fail(
      s.i,
      'plan.ambiguous-match',
      `${tier.length} ${tierName} live ${o.kind}s have ${o.keyLabel} ${q(key)} (ids ${ids(tier)}); ` +
        `pin the one to manage with \`id:\`.`,
    );
    return;
  }
  const live = tier[0]!;
  s.claimed.add(live.id);
  s.outcomes[s.i] = { ok: true, live, via: underNew.length > 0 ? 'name' : 'renamed_from' };
}

const ids = (list: Liveish[]): string => list.map((l) => q(l.id)).join(', ');
