// What every resource kind provides (decK's types/<kind>.go behind one interface). Each kind's
// module (action.ts, parser.ts, app.ts) is one value of this interface, next to the functions it
// is made of (canonical form, request bodies, reading an answer); index.ts is the registry.

import type { ApiClient } from '../api-client.js';
import type { AppSecrets, LiveState, ResourceType, ScopeRecord } from '../types.js';

export interface Kind<L, S> {
  type: ResourceType;
  /** Dependency level (decK's order.go): creates top-down, archives bottom-up. */
  level: number;
  /** Nested kinds only (parsers): the kind that owns a resource of this one; its address is the owner's, extended. */
  ownedBy?: ResourceType;
  /** Kinds created with secrets (apps): the create's answer goes to the secrets file and nowhere else. */
  hasSecrets?: true;
  /** The identity key's name, for messages: `name`, `category`, `package_name`. */
  keyLabel: string;
  /** The identity key of a live or desired resource (parsers: within their action). */
  key(resource: L | S): string;
  /** The address of a desired resource (model/address.ts); `parent`: the owner's address, for nested kinds. */
  address(spec: S, parent?: string): string;
  /** The address of the resource with this identity key (`parent` as for `address`). */
  addressOf(key: string, parent?: string): string;
  /**
   * The applied-state record's table that holds this kind's lines (src/record/): the id of a
   * resource the API cannot be asked about, and what the API does not echo. Absent: the record
   * holds nothing of this kind (a parser is managed through its action).
   */
  recordedIn?: keyof ScopeRecord;
  /** Nested kinds only (parsers): the public id of the live resource's owner. */
  parentId?(live: L): string;
  /** This kind's resources in a live state read. */
  liveIn(state: LiveState): readonly L[];
  /** The live resource's canonical form: what the planner compares and a fingerprint covers. */
  canonicalLive(live: L): object;
  /** The desired resource's canonical form, as a create lists it (`nameOf`: operator id -> name). */
  canonical(spec: S, nameOf: (id: number) => string): object;
  /** The canonical form's fields a plan compares, in the order a plan lists them (they are plan JSON paths). */
  paths: readonly string[];
  /** The desired resource as a saved plan holds it (`desired`, schemas/plan.schema.json). */
  planJson(spec: S): Record<string, unknown>;
  api: {
    /** Creates it (`parentId`: the owner's live public id, for nested kinds); `secrets` only for kinds that have them. */
    create(client: ApiClient, spec: S, parentId: string | null): Promise<{ live: L; secrets?: AppSecrets }>;
    /** Every live resource of this kind (under `parentId`, for nested kinds); null when the API cannot list them. */
    list(client: ApiClient, parentId: string | null): Promise<readonly L[] | null>;
    get(client: ApiClient, id: string): Promise<L | null>;
    /** Sends the whole desired resource (actions: always with their steps). */
    update(client: ApiClient, id: string, spec: S): Promise<unknown>;
    archive(client: ApiClient, id: string): Promise<void>;
    restore(client: ApiClient, id: string): Promise<unknown>;
  };
}
