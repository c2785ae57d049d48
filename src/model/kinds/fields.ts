// A kind's fields, declared once (a Terraform provider's schema, octoDNS's record class): each
// entry says how the config writes the field, how an API answer gives it, how two values compare,
// what the create body sends, what a saved plan and the schemas say of it, when export leaves it
// out and whether a live read pools it. The kind's types (model/types.ts) are mapped from its
// table, and its canonical form, bodies, `paths`, plan JSON, answer reader, config reader, export
// entries and settled parser's getters are made from it once, when this module loads
// (`fieldTable`), never per object. The reference server keeps its own declarations on purpose:
// it is the other side of the conformance tests.
//
// A field is `text`, `textOrNull`, `choice` or `whole` (a scalar: the same value in the config,
// the resolved form, the live form and the canonical form) or `custom` (its own codec: actions'
// operators and steps). Pure: no I/O.

import { nullIfEmpty, str, strOrNull } from './values.js';

/** JSON Schema of one value, as the generated schemas write it (scripts/gen-validators.mjs). */
export type JsonSchema = Readonly<Record<string, unknown>>;

interface FieldBase<V> {
  /** Phantom: the field's value type. */
  readonly _value?: V;
  /**
   * Optional in the config, with this value when absent (the API's value when the field is not
   * sent); export leaves a live value equal to it out. Absent: the config requires the field.
   */
  readonly default?: V;
  /** A required field's value in a file the schema refused, so the checks still run on the rest. */
  readonly fallback?: V;
  /** A live read keeps one copy of each value (text/string-pool.ts): values repeat across resources. */
  readonly pooled?: true;
  /**
   * Sent on create only when this holds of the resolved resource (a parser's target_type and
   * sender, only for an sms parser: the spec's create body does not list them). Absent: always.
   */
  readonly sentWhen?: (resource: never) => boolean;
  /** Written single-quoted by export (a regex: backslashes are literal there). */
  readonly quoted?: 'single';
  /** The API answer's schema of the attribute, where it is looser than the value's (`plan`). */
  readonly answer?: JsonSchema;
  /** The answer may leave the attribute out. */
  readonly answerOptional?: true;
}

export interface TextField<V extends string = string> extends FieldBase<V> {
  readonly type: 'text';
}
export interface TextOrNullField extends FieldBase<string | null> {
  readonly type: 'textOrNull';
  /**
   * The resolved value from the desired resource's (a ussd parser's sender is null, whatever the
   * config says). Absent: as written.
   */
  readonly resolve?: (desired: never) => string | null;
  /** The API answers '' for none (a ussd parser's sender is "null or empty"): the live form has null. */
  readonly emptyIsNull?: true;
}
export interface ChoiceField<V extends string> extends FieldBase<V> {
  readonly type: 'choice';
  readonly values: readonly V[];
}
export interface WholeField extends FieldBase<number> {
  readonly type: 'whole';
}

/**
 * A field with its own codec: its config form `C`, resolved form `R` (what a change sends, under
 * `resolvedName`), live form `L` (what the API echoes) and canonical form `K` differ.
 */
export interface CustomField<C, R, L, K, N extends string | undefined = undefined> {
  readonly type: 'custom';
  /** The config may leave it out (its reader gives the empty value). */
  readonly optional?: true;
  /** The resolved form's key, where it is not the field's (actions' `operators` resolve to `operator_ids`). */
  readonly resolvedName?: N;
  readonly _forms?: { config: C; resolved: R; live: L; canonical: K };
  /** The API answer's attribute as the live form. */
  readonly read: (attribute: unknown) => L;
  readonly canonicalLive: (live: L) => K;
  readonly canonical: (resolved: R, nameOf: (id: number) => string) => K;
  /** The request body's key and value (the same for create and update). */
  readonly bodyName: string;
  readonly body: (resolved: R) => unknown;
  /** As a saved plan holds it. */
  readonly planJson: (resolved: R) => unknown;
  /** Pools the live value's strings (in place). */
  readonly pool?: (live: L, get: (s: string) => string) => void;
  /** JSON Schemas: the saved plan's resolved value, the answer's attribute. */
  readonly plan: JsonSchema;
  readonly answer: JsonSchema;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCustom = CustomField<any, any, any, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Field = TextField<any> | TextOrNullField | ChoiceField<any> | WholeField | AnyCustom;
export type Fields = Readonly<Record<string, Field>>;

export const text = (o: Omit<TextField, 'type'> = {}): TextField => ({ type: 'text', ...o });
export const textOrNull = (o: Omit<TextOrNullField, 'type'> = {}): TextOrNullField => ({ type: 'textOrNull', ...o });
export const choice = <V extends string>(values: readonly V[], o: Omit<ChoiceField<V>, 'type' | 'values'> = {}): ChoiceField<V> => ({ type: 'choice', values, ...o });
export const whole = (o: Omit<WholeField, 'type'> = {}): WholeField => ({ type: 'whole', ...o });
export const custom = <C, R, L, K, N extends string | undefined = undefined>(o: Omit<CustomField<C, R, L, K, N>, 'type'>): CustomField<C, R, L, K, N> => ({ type: 'custom', ...o });

// ---- the types a table maps to ----

type ScalarValue<F> = F extends FieldBase<infer V> ? V : never;
type Form<F, P extends 'config' | 'resolved' | 'live' | 'canonical'> = F extends AnyCustom ? NonNullable<F['_forms']>[P] : ScalarValue<F>;
type NameOf<F> = F extends AnyCustom ? NonNullable<F['resolvedName']> : never;
type ResolvedKey<F, K> = [NameOf<F>] extends [never] ? K : NameOf<F>;

/** The fields as the config writes them (`Desired*` adds the managing options and its path). */
export type ConfigValues<T extends Fields> = { -readonly [K in keyof T]: Form<T[K], 'config'> };
/** As a change sends them and a saved plan holds them (`Resolved*`). */
export type ResolvedValues<T extends Fields> = { -readonly [K in keyof T as ResolvedKey<T[K], K>]: Form<T[K], 'resolved'> };
/** As the API echoes them (`Live*` adds the server's own: id, timestamps). */
export type LiveValues<T extends Fields> = { -readonly [K in keyof T]: Form<T[K], 'live'> };
/** What the planner compares, of either side. */
export type CanonicalValues<T extends Fields> = { -readonly [K in keyof T]: Form<T[K], 'canonical'> };

// ---- objects laid out as literals ----

type Target = Record<PropertyKey, unknown>;

/**
 * A constructor of objects whose keys `fill` sets, laid out as an object literal of those keys
 * would be: every value in the object itself. V8 sizes what `new` makes from the `this.x =`
 * stores in the constructor's text (plus 8), then trims to what was used; an object built key by
 * key from `{}` keeps 4 in itself and the rest in a separate array, more bytes for every object
 * (a big plan holds a parser object per parser). The stores below never run; they make room for
 * 14 keys.
 */
export function shaped<A, B = undefined, C = undefined>(fill: (o: Target, a: A, b: B, c: C) => void): new (a: A, b?: B, c?: C) => Target {
  const Shaped = function (this: Target, a: A, b: B, c: C): void {
    if (a === (NEVER as unknown)) {
      this.a = 0; this.b = 0; this.c = 0; this.d = 0; this.e = 0; this.f = 0;
    }
    fill(this, a, b, c);
  } as unknown as new (a: A, b?: B, c?: C) => Target;
  Shaped.prototype = Object.prototype;
  return Shaped;
}
const NEVER = Symbol('never');

// ---- what a table gives at run time ----

export interface ExportEntry {
  name: string;
  value: unknown;
  quoted?: 'single';
}

export interface FieldTable<T extends Fields> {
  readonly fields: T;
  /** Field names in the table's order: the config's, the live form's, the saved plan's. */
  readonly names: readonly (keyof T & string)[];
  /** The canonical form's keys in the order the plan lists them (`Kind.paths`, plan JSON paths). */
  readonly paths: readonly (keyof T & string)[];
  /** The resolved form's keys, in the table's order. */
  readonly resolvedNames: readonly string[];
  /** Live fields a read pools (text/string-pool.ts). */
  readonly pooled: readonly (keyof T & string)[];
  /** The scalar fields as a config file's mapping gives them (defaults filled), written into `into`; custom fields are the config reader's. */
  readConfig(raw: Readonly<Record<string, unknown>>, into: Target): void;
  /** The live fields from an answer's attributes, written into `into` (a live resource being made). */
  readLive(attributes: Readonly<Record<string, unknown>>, into: Target): void;
  /** The live form's fields pooled in place (scalars by key, custom fields by their codec). */
  pool(live: object, get: (s: string) => string): void;
  canonicalLive(live: LiveValues<T>): CanonicalValues<T>;
  canonical(resolved: ResolvedValues<T>, nameOf: (id: number) => string): CanonicalValues<T>;
  /** The create body's fields (those whose `sentWhen` holds), in the table's order. */
  createBody(resolved: ResolvedValues<T>, into: Target): void;
  planJson(resolved: ResolvedValues<T>): Record<string, unknown>;
  /** The scalar fields' resolved values from the desired resource's. */
  resolve(desired: ConfigValues<T>, into: Target): void;
  /** One scalar field's resolved value from the desired resource (a settled live parser's getters). */
  resolver(name: keyof T & string): (desired: ConfigValues<T>) => unknown;
  /** What export writes of a live resource: every scalar field but those equal to their default. */
  exportEntries(live: LiveValues<T>): ExportEntry[];
  /** Schemas: a saved plan's `desired`, the API answer's attributes (properties and required). */
  planSchema(): { required: string[]; properties: Record<string, JsonSchema> };
  answerSchema(): { required: string[]; properties: Record<string, JsonSchema> };
}

const isCustom = (f: Field): f is AnyCustom => f.type === 'custom';


/** How a scalar's answer attribute becomes its live value. */
function reader(f: Exclude<Field, AnyCustom>): (v: unknown) => unknown {
  switch (f.type) {
    case 'text':
      return str;
    // A ussd parser's sender is "null or empty": one live form.
    case 'textOrNull':
      return f.emptyIsNull ? (v) => nullIfEmpty(strOrNull(v)) : strOrNull;
    // Kept as sent even when outside the enum (the spec does not show every status): the planner
    // then sees a difference instead of the client refusing the whole state.
    case 'choice':
      return f.default !== undefined ? (v) => v ?? f.default : (v) => v;
    case 'whole':
      return f.default !== undefined ? (v) => (v === null || v === undefined ? f.default : Number(v)) : Number;
  }
}

/** How a scalar compares: the server's default filled in, '' and null one value for textOrNull. */
function comparer(f: Exclude<Field, AnyCustom>): ((v: unknown) => unknown) | null {
  if (f.type === 'textOrNull') return nullIfEmpty as (v: unknown) => unknown;
  return f.default !== undefined ? (v) => v ?? f.default : null;
}

function planValueSchema(f: Exclude<Field, AnyCustom>): JsonSchema {
  switch (f.type) {
    case 'text':
      return f.default !== undefined ? { type: 'string' } : { type: 'string', minLength: 1 };
    case 'textOrNull':
      return { type: ['string', 'null'] };
    case 'choice':
      return { enum: [...f.values] };
    case 'whole':
      return { type: 'integer' };
  }
}

/** The answer's schema: the plan's, but any text (an answer's text may be empty), unless the entry says. */
function answerValueSchema(f: Exclude<Field, AnyCustom>): JsonSchema {
  return f.answer ?? (f.type === 'text' ? { type: 'string' } : planValueSchema(f));
}

/**
 * The run-time functions of a kind's table. `first`: fields the canonical form (and so `paths`)
 * puts before the others, which follow in the table's order (parsers compare status first:
 * fingerprints and config digests in saved plans hash their canonical forms in that order).
 */
export function fieldTable<T extends Fields>(fields: T, options: { first?: readonly (keyof T & string)[] } = {}): FieldTable<T> {
  const names = Object.keys(fields) as (keyof T & string)[];
  const first = options.first ?? [];
  const paths = [...first, ...names.filter((n) => !first.includes(n))];
  const entries = names.map((name) => [name, fields[name]!] as const);
  type Named<F> = readonly [keyof T & string, F];
  const scalars = entries.filter((e) => !isCustom(e[1])) as unknown as Named<Exclude<Field, AnyCustom>>[];
  const customs = entries.filter((e) => isCustom(e[1])) as unknown as Named<AnyCustom>[];
  const resolvedName = (name: string, f: Field): string => (isCustom(f) ? (f.resolvedName ?? name) : name);
  const readers = entries.map(([, f]) => (isCustom(f) ? f.read : reader(f)));
  const comparers = paths.map((name) => {
    const f = fields[name]!;
    return isCustom(f) ? null : comparer(f);
  });
  const pathResolved = paths.map((name) => resolvedName(name, fields[name]!));
  const pooled = scalars.filter(([, f]) => f.pooled).map(([n]) => n);
  const customPools = customs.filter(([, f]) => f.pool !== undefined);
  const resolvers = scalars.map(([name, f]) => (f.type === 'textOrNull' && f.resolve !== undefined ? f.resolve : null));
  const scalarNames = scalars.map(([n]) => n);

  // Canonical forms: one key per path, made by one constructor per side (see `shaped`). Per path,
  // worked out here once: its custom codec (or null), its comparer (or null: the value as it is).
  const pathCustoms = paths.map((name) => {
    const f = fields[name]!;
    return isCustom(f) ? f : null;
  });
  const CanonicalLive = shaped<Target>((o, live) => {
    for (let i = 0; i < paths.length; i++) {
      const name = paths[i]!;
      const custom = pathCustoms[i];
      const c = comparers[i];
      o[name] = custom !== null ? custom.canonicalLive(live[name]) : c === null ? live[name] : c!(live[name]);
    }
  });
  const CanonicalResolved = shaped<Target, (id: number) => string>((o, resolved, nameOf) => {
    for (let i = 0; i < paths.length; i++) {
      const name = paths[i]!;
      const custom = pathCustoms[i];
      const c = comparers[i];
      o[name] = custom !== null ? custom.canonical(resolved[pathResolved[i]!], nameOf!) : c === null ? resolved[name] : c!(resolved[name]);
    }
  });

  return {
    fields,
    names,
    paths,
    resolvedNames: entries.map(([name, f]) => resolvedName(name, f)),
    pooled,
    readConfig(raw, into) {
      for (let i = 0; i < scalars.length; i++) into[scalars[i]![0]] = configValue(scalars[i]![1], raw, scalars[i]![0]);
    },
    readLive(attributes, into) {
      for (let i = 0; i < entries.length; i++) into[entries[i]![0]] = readers[i]!(attributes[entries[i]![0]]);
    },
    pool(live, get) {
      const o = live as Target;
      for (let i = 0; i < pooled.length; i++) {
        const v = o[pooled[i]!];
        if (typeof v === 'string') o[pooled[i]!] = get(v);
      }
      for (const [name, f] of customPools) f.pool!(o[name], get);
    },
    canonicalLive: (live) => new CanonicalLive(live as unknown as Target) as CanonicalValues<T>,
    canonical: (resolved, nameOf) => new CanonicalResolved(resolved as unknown as Target, nameOf) as CanonicalValues<T>,
    createBody(resolved, into) {
      const r = resolved as unknown as Target;
      for (const [name, f] of entries) {
        if (isCustom(f)) into[f.bodyName] = f.body(r[resolvedName(name, f)]);
        else if (f.sentWhen === undefined || f.sentWhen(resolved as never)) into[name] = r[name];
      }
    },
    planJson(resolved) {
      const r = resolved as unknown as Target;
      const out: Record<string, unknown> = {};
      for (const [name, f] of entries) {
        const key = resolvedName(name, f);
        out[key] = isCustom(f) ? f.planJson(r[key]) : r[key];
      }
      return out;
    },
    resolve(desired, into) {
      const d = desired as unknown as Target;
      for (let i = 0; i < scalarNames.length; i++) {
        const r = resolvers[i];
        into[scalarNames[i]!] = r === null ? d[scalarNames[i]!] : r!(desired as never);
      }
    },
    resolver(name) {
      const i = scalarNames.indexOf(name);
      if (i < 0) throw new Error(`${name} is no scalar field`);
      const r = resolvers[i];
      return r === null ? (d) => (d as unknown as Target)[name] : (d) => r!(d as never);
    },
    exportEntries(live) {
      const l = live as unknown as Target;
      const out: ExportEntry[] = [];
      for (const [name, f] of scalars) {
        const v = l[name];
        if (f.default !== undefined && v === f.default) continue;
        out.push(f.quoted !== undefined ? { name, value: v, quoted: f.quoted } : { name, value: v });
      }
      return out;
    },
    planSchema() {
      const properties: Record<string, JsonSchema> = {};
      for (const [name, f] of entries) properties[resolvedName(name, f)] = isCustom(f) ? f.plan : planValueSchema(f);
      return { required: Object.keys(properties), properties };
    },
    answerSchema() {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, f] of entries) {
        properties[name] = isCustom(f) ? f.answer : answerValueSchema(f);
        if (isCustom(f) || !f.answerOptional) required.push(name);
      }
      return { required, properties };
    },
  };
}

type Attributes = Readonly<Record<string, unknown>>;

/**
 * The constructor of a kind's live resource from an API answer (`{ id, attributes }`): its `id`,
 * what `before` reads, the table's fields, then what `after` reads (the server's own fields, in
 * the client's key order). Made once per kind.
 */
export function liveMaker(
  table: { readLive(attributes: Attributes, into: Target): void },
  own: { before?: Readonly<Record<string, (a: Attributes) => unknown>>; after: Readonly<Record<string, (a: Attributes) => unknown>> },
): new (json: { id: string | number; attributes: Attributes }) => Target {
  const before = Object.entries(own.before ?? {});
  const after = Object.entries(own.after);
  return shaped<{ id: string | number; attributes: Attributes }>((o, json) => {
    const a = json.attributes;
    o.id = String(json.id);
    for (let i = 0; i < before.length; i++) o[before[i]![0]] = before[i]![1](a);
    table.readLive(a, o);
    for (let i = 0; i < after.length; i++) o[after[i]![0]] = after[i]![1](a);
  });
}

/** Reads a scalar field's config value from a file's raw mapping (config/build.ts). */
export function configValue(f: Field, raw: Readonly<Record<string, unknown>>, name: string): unknown {
  const v = raw[name];
  switch (f.type) {
    case 'text':
      return typeof v === 'string' ? v : (f.default ?? f.fallback ?? '');
    case 'textOrNull':
      return typeof v === 'string' ? v : (f.default ?? null);
    case 'choice':
      return (f.values as readonly unknown[]).includes(v) ? v : (f.default ?? f.fallback);
    case 'whole':
      return typeof v === 'number' && Number.isInteger(v) ? v : (f.default ?? f.fallback ?? 0);
    case 'custom':
      throw new Error(`${name} has its own reader`);
  }
}
