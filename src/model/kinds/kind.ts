// What every resource kind provides (decK's types/<kind>.go behind one interface). Each kind's
// module (action.ts, parser.ts, app.ts) is one value of this interface; index.ts is the registry.

import type { ApiClient } from '../api-client.js';
import type { LiveState, ResourceType } from '../types.js';

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
