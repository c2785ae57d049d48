// The registry of resource kinds (decK's types/<kind>.go and its registry): one module per kind
// (action.ts, parser.ts, app.ts), each a value of the `Kind` interface (kind.ts), with its fields
// declared in its table (<kind>-fields.ts). Code that does the same thing to every kind looks the
// kind up here instead of switching on it; a new kind touches its own modules, a new field its
// table, not the code that uses them.

import type { ParsedAddress } from '../address.js';
import type { LiveAction, LiveApp, LiveParser, ResolvedParser, ResolvedApp, ResolvedAction, ResourceType } from '../types.js';
import { action } from './action.js';
import { app } from './app.js';
import type { Kind } from './kind.js';
import { parser } from './parser.js';

export type { Kind, RecordWriter } from './kind.js';

interface Types {
  action: { live: LiveAction; resolved: ResolvedAction };
  parser: { live: LiveParser; resolved: ResolvedParser };
  app: { live: LiveApp; resolved: ResolvedApp };
}
export type KindOf<T extends ResourceType> = Kind<Types[T]['live'], Types[T]['resolved']>;

export const KINDS: { readonly [T in ResourceType]: KindOf<T> } = { action, parser, app };

/**
 * The entry for a kind known only as a union at compile time (a Change, a Pair): TypeScript
 * cannot correlate `KINDS[x.type]` with `x`'s other fields, so callers pass values of the
 * same kind through this loosely typed view.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function kindOf(type: ResourceType): Kind<any, any> {
  return KINDS[type];
}

/** Every kind, in `KINDS`'s order (top-level kinds first in their lists: action, then app). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ALL_KINDS: readonly Kind<any, any>[] = (Object.keys(KINDS) as ResourceType[]).map(kindOf);

/**
 * The owner's address of a nested resource (a parser's action), else undefined: for anything
 * that carries its kind and, when nested, its `parent` (a Pair, an Orphan, a Change).
 */
export function parentOf(x: { type: ResourceType; parent?: string }): string | undefined {
  return KINDS[x.type].ownedBy === undefined ? undefined : x.parent;
}

/** A parsed address written the one way (model/address.ts): a nested one under its owner's address. */
export function formatAddress(p: ParsedAddress): string {
  const kind = KINDS[p.type];
  return kind.ownedBy === undefined ? kind.addressOf(p.key) : kind.addressOf(p.category!, KINDS[kind.ownedBy].addressOf(p.key));
}
