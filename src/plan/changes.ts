// Turns one compared pair (desired + live match) or orphan into a plan change.

import { fingerprint } from '../model/fingerprint.js';
import { kindOf, parentOf } from '../model/kinds/index.js';
import type { Orphan, Pair, ParserPair } from './compare.js';
import type { ArchiveChange, Change, ChangeReason, CreateChange, FieldChange, Typed } from './types.js';

/** `resend`: addresses of actions whose steps must be re-sent even when their values look equal (only actions' addresses are ever in it). */
export function changeForPair(pair: Pair, opts: { resend: ReadonlySet<string>; nameOf: (id: number) => string }): Change | null {
  if (pair.live === null) return createChange(pair, opts.nameOf);
  // Decided before anything is built: nearly every pair of a big plan changes nothing, and a
  // settled parser's pair (compare.ts) works out its address and resolved form when read.
  const forced = kindOf(pair.type).hiddenDetails !== undefined && opts.resend.has(pair.address);
  const archived = pair.live.archived_at !== null;
  if (!archived && pair.fields.length === 0 && !forced) return null;
  const reasons: ChangeReason[] = [];
  const renamed = renamedFrom(pair);
  if (renamed !== null) reasons.push({ code: 'renamed', from: renamed });
  if (forced) reasons.push({ code: 'resend' });
  const base = {
    id: pair.live.id,
    address: pair.address,
    fingerprint: liveFingerprint(pair),
    fields: pair.fields,
    ...(reasons.length > 0 ? { reasons } : {}),
    ...(forced ? { forced: true as const } : {}),
    ...typedPart(pair),
  };
  return archived ? { op: 'restore', ...base } : { op: 'update', ...base };
}

export function archiveForOrphan(orphan: Orphan, reason: ChangeReason): ArchiveChange {
  return {
    op: 'archive',
    type: orphan.type,
    address: orphan.address,
    id: orphan.live.id,
    fingerprint: liveFingerprint(orphan),
    fields: [],
    reasons: [reason],
    ...owner(parentOf(orphan), () => kindOf(orphan.type).parentId!(orphan.live)),
  };
}

/** The kind, what to send, and for a nested resource its owner: the matched owner's live id, null when it is created too. */
function typedPart(pair: Pair): Typed {
  return { type: pair.type, desired: pair.spec, ...owner(parentOf(pair), () => (pair as ParserPair).actionId) } as Typed;
}

/** A nested resource's owner (model/kinds `ownedBy`): its address and live public id; nothing for a top-level one. */
function owner<Id>(parent: string | undefined, id: () => Id): { parent: string; action_id: Id } | Record<string, never> {
  return parent === undefined ? {} : { parent, action_id: id() };
}

/** The fingerprint apply --plan checks; null when nothing is live yet. */
function liveFingerprint(r: Pair | Orphan): string | null {
  return r.live === null ? null : fingerprint(r.type, r.live);
}

/** The live key when it differs from the desired one (by renamed_from, or by a pinned id). */
function renamedFrom(pair: Pair): string | null {
  if (!pair.live) return null;
  const kind = kindOf(pair.type);
  const was = kind.key(pair.live);
  return was !== kind.key(pair.spec) ? was : null;
}

/** Where a create keeps the pair it was made from, and the operator namer its `fields` need. */
const PAIR = Symbol('menuctl.pair');
const NAME_OF = Symbol('menuctl.nameOf');

interface CreateSource {
  [PAIR]: Pair;
  [NAME_OF]: (id: number) => string;
}

/** The `fields` of a create, worked out from the change itself (one function for every create). */
function createFields(this: CreateChange & CreateSource): FieldChange[] {
  const values = kindOf(this.type).canonical(this.desired as never, this[NAME_OF]);
  return Object.entries(values).map(([path, after]) => ({ path, before: null, after }));
}

const read = (get: (this: CreateSource) => unknown): PropertyDescriptor => ({ get, enumerable: true, configurable: true });
/** A create's keys in the order JSON, spreads and the renderers see them, each read from its pair. */
const CREATE_KEYS = {
  op: read(() => 'create'),
  id: read(() => null),
  address: read(function () { return this[PAIR].address; }),
  fingerprint: read(() => null),
  fields: read(createFields as (this: CreateSource) => unknown),
  type: read(function () { return this[PAIR].type; }),
  desired: read(function () { return this[PAIR].spec; }),
};
const OWNED_CREATE_KEYS = {
  ...CREATE_KEYS,
  parent: read(function () { return (this[PAIR] as ParserPair).parent; }),
  action_id: read(function () { return (this[PAIR] as ParserPair).actionId; }),
};

/**
 * A create shows every field it sets, `before` null, in the same canonical form as a diff. It is
 * a view of its pair: every key an enumerable getter in its place (JSON and spreads see the same
 * plain change as before), the getters shared by every create, so V8 keeps them in the object's
 * shape and the object holds two values, its pair and the operator namer. Held as values, a
 * create of a parser was its fields (six objects), a copy of its keys in a property array and its
 * resolved form. Nothing writes to a change once planned.
 */
function createChange(pair: Pair, nameOf: (id: number) => string): Change {
  const change = Object.defineProperties({}, parentOf(pair) === undefined ? CREATE_KEYS : OWNED_CREATE_KEYS);
  Object.defineProperty(change, PAIR, { value: pair });
  Object.defineProperty(change, NAME_OF, { value: nameOf });
  return change as unknown as Change;
}
