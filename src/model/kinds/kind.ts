// What every resource kind provides (decK's types/<kind>.go behind one interface). Each kind's
// module (action.ts, parser.ts, app.ts) is one value of this interface, next to the functions it
// is made of (canonical form, request bodies, reading an answer); index.ts is the registry.

import type { ApiClient } from '../api-client.js';
import type { FieldTable } from './fields.js';
import type { AppSecrets, DesiredState, LiveState, ResolvedAction, ResourceType, ScopeRecord } from '../types.js';

/** The record's writes a kind's `record` hooks make (state/record-file.ts RecordKeeper is one). */
export interface RecordWriter {
  appPending(address: string): Promise<void>;
  appIs(address: string, id: string): Promise<void>;
  actionPending(address: string, desired: ResolvedAction): Promise<void>;
  actionsPending(creates: readonly { address: string; desired: ResolvedAction }[]): Promise<void>;
  actionApplied(address: string, id: string, desired: ResolvedAction): Promise<void>;
  actionIs(address: string, id: string, details: 'unknown'): Promise<void>;
}

/** `L`: the kind's live form (`Live*`); `S`: its resolved form, what a change sends (`Resolved*`). */
export interface Kind<L, S> {
  type: ResourceType;
  /** Dependency level (decK's order.go): creates top-down, archives bottom-up. */
  level: number;
  /** Nested kinds only (parsers): the kind that owns a resource of this one; its address is the owner's, extended. */
  ownedBy?: ResourceType;
  /**
   * Kinds the API may not list (`api.list` answers null: the spec shows no apps index): only the
   * record tells which live resource is the config's, and a create left in flight there cannot be
   * resolved by a read (plan/in-flight.ts, engine/saved-plan.ts).
   */
  mayBeUnlisted?: true;
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
  /**
   * What apply and import tell the record of this kind (with `recordedIn`; apply/journal.ts,
   * engine/import.ts). Absent: nothing.
   */
  record?: {
    /** Once, before the apply's first request: its creates of this kind, in flight, in one write. */
    beforeAll?(w: RecordWriter, creates: readonly { address: string; desired: S }[]): Promise<void>;
    /** Just before its create is sent. */
    beforeCreate(w: RecordWriter, address: string, desired: S): Promise<void>;
    /**
     * The API confirmed a change to it (`id`: its live id). `desired`: what it should be, absent
     * for an archive; `sentWhole`: the change sent the whole desired resource (a create, an
     * update, a restore with a patch or forced).
     */
    confirmed(w: RecordWriter, address: string, id: string, desired: S | undefined, sentWhole: boolean): Promise<void>;
    /** Adopted by import or export: live `id` is the address's from now on. */
    adopted(w: RecordWriter, address: string, id: string): Promise<void>;
  };
  /**
   * Kinds with details the API does not echo (actions' step kinds, expect texts, descriptions):
   * the record keeps what was sent; an adopted one's are unknown, and only a `--resend` that
   * names it sends the config's over them (plan/unknown-details.ts, plan/hidden-steps.ts).
   */
  hiddenDetails?: {
    /** The desired resource carries details the API does not echo. */
    has(spec: S): boolean;
    /** The config states hidden details (not merely a default, as a variable step without a description). */
    stated(spec: S): boolean;
  };
  /** Top-level kinds the config declares as a list: its resources in a desired state (import finds the one to adopt). */
  desiredIn?(state: DesiredState): readonly object[];
  /** Nested kinds only (parsers): the public id of the live resource's owner. */
  parentId?(live: L): string;
  /** This kind's resources in a live state read. */
  liveIn(state: LiveState): readonly L[];
  /** The live resource's canonical form: what the planner compares and a fingerprint covers. */
  canonicalLive(live: L): object;
  /** The desired resource's canonical form, as a create lists it (`nameOf`: operator id -> name). */
  canonical(spec: S, nameOf: (id: number) => string): object;
  /** Its fields, declared once (fields.ts): what `paths`, `planJson`, the bodies and the schemas are made from. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fields: FieldTable<any>;
  /** The canonical form's fields a plan compares, in the order a plan lists them (they are plan JSON paths). */
  paths: readonly string[];
  /**
   * A created resource's field `path` as a reviewer reads it (`value`: the compared one): in the
   * config's form where the compared value hides what matters (actions' steps: the API echoes
   * only values, and `variable: phone` reads as `select: phone`); report/plan-model.ts. The JSON
   * plan keeps the compared values.
   */
  reviewValue?(spec: S, path: string, value: unknown): unknown;
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
