// One table entry per resource kind (issue 16 item 1; decK's per-kind registry): its level in
// the apply order, its identity key, its canonical live and desired forms (a fingerprint hashes the live one),
// and its API calls. Code that does the same thing to every kind looks the kind up here instead
// of switching on it; a new kind or field touches this table and its own files.
//
// Creates stay per kind in apply/execute.ts: each has its own way to recover a lost answer
// (an action by name, a parser within its action, an app's secrets).

import type { ApiClient } from './api-client.js';
import { canonicalApp, canonicalDesiredAction, canonicalLiveAction, canonicalParser } from './canonical.js';
import type {
  ResolvedAction, AppSpec, LiveAction, LiveApp, LiveParser, LiveState, ParserSpec, ResourceType,
} from './types.js';

export interface Kind<L, S> {
  type: ResourceType;
  /** Dependency level (decK's order.go): creates top-down, archives bottom-up. */
  level: number;
  /** The identity key's name, for messages: `name`, `category`, `package_name`. */
  keyLabel: string;
  /** The identity key of a live or desired resource (parsers: within their action). */
  key(resource: L | S): string;
  /** Nested kinds only (parsers): the public id of the live resource's owner. */
  parentId?(live: L): string;
  /** This kind's resources in a live state read. */
  liveIn(state: LiveState): readonly L[];
  /** The live resource's canonical form (model/canonical.ts): what the planner compares and a fingerprint covers. */
  canonicalLive(live: L): object;
  /** The desired resource's canonical form, as a create lists it (`nameOf`: operator id -> name). */
  canonical(spec: S, nameOf: (id: number) => string): object;
  api: {
    get(client: ApiClient, id: string): Promise<L | null>;
    /** Sends the whole desired resource (actions: always with their steps). */
    update(client: ApiClient, id: string, spec: S): Promise<unknown>;
    archive(client: ApiClient, id: string): Promise<void>;
    restore(client: ApiClient, id: string): Promise<unknown>;
  };
}

interface Types {
  action: { live: LiveAction; spec: ResolvedAction };
  parser: { live: LiveParser; spec: ParserSpec };
  app: { live: LiveApp; spec: AppSpec };
}
export type KindOf<T extends ResourceType> = Kind<Types[T]['live'], Types[T]['spec']>;

export const KINDS: { readonly [T in ResourceType]: KindOf<T> } = {
  action: {
    type: 'action',
    level: 0,
    keyLabel: 'name',
    key: (r) => r.name,
    liveIn: (s) => s.actions,
    canonicalLive: (a) => canonicalLiveAction(a),
    canonical: (spec, nameOf) => canonicalDesiredAction(spec, nameOf),
    api: {
      get: (c, id) => c.getAction(id),
      update: (c, id, spec) => c.updateAction(id, spec),
      archive: (c, id) => c.archiveAction(id),
      restore: (c, id) => c.restoreAction(id),
    },
  },
  parser: {
    type: 'parser',
    level: 1,
    keyLabel: 'category',
    key: (r) => r.category,
    parentId: (p) => p.action_id,
    liveIn: (s) => s.parsers,
    canonicalLive: (p) => canonicalParser(p),
    canonical: (spec) => canonicalParser(spec),
    api: {
      get: (c, id) => c.getParser(id),
      update: (c, id, spec) => c.updateParser(id, spec),
      archive: (c, id) => c.archiveParser(id),
      restore: (c, id) => c.restoreParser(id),
    },
  },
  app: {
    type: 'app',
    level: 0,
    keyLabel: 'package_name',
    key: (r) => r.package_name,
    liveIn: (s) => s.apps,
    canonicalLive: (a) => canonicalApp(a),
    canonical: (spec) => canonicalApp(spec),
    api: {
      get: (c, id) => c.getApp(id),
      update: (c, id, spec) => c.updateApp(id, spec),
      archive: (c, id) => c.archiveApp(id),
      restore: (c, id) => c.restoreApp(id),
    },
  },
};

/**
 * The entry for a kind known only as a union at compile time (a Change, a Pair): TypeScript
 * cannot correlate `KINDS[x.type]` with `x`'s other fields, so callers pass values of the
 * same kind through this loosely typed view.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function kindOf(type: ResourceType): Kind<any, any> {
  return KINDS[type];
}
