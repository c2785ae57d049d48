// Each kind's fields are declared once, in its table (src/model/kinds/*-fields.ts). Everything
// else that names them is made from it or must agree with it: the kind's `paths`, its canonical
// forms, its plan JSON, the saved plan's schema, the API answers' schemas and the config schema
// (hand-written, for its descriptions and limits). This holds them to the table, kind by kind:
// every table field appears in each exactly as declared, and nothing else does.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Field, FieldTable, JsonSchema } from '../../src/model/kinds/fields.js';
import { ALL_KINDS, type Kind } from '../../src/model/kinds/index.js';
import { PARSER_FIELD, PARSER_FIELDS } from '../../src/model/kinds/parser-fields.js';
import { resolveParser } from '../../src/model/kinds/parser.js';
import { fromApiAction, fromApiApp, fromApiParser } from '../../src/model/payload.js';
import type { LiveParser, ResolvedParser, ResourceType } from '../../src/model/types.js';
import { desiredParser } from '../plan/builders.js';

const json = (path: string): Record<string, any> => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const plan = json('schemas/plan.schema.json');
const config = json('schemas/menuctl.strict.schema.json');
const FROM_API: Record<ResourceType, (j: { id: string; attributes: Record<string, unknown> }) => object> = {
  action: fromApiAction, parser: fromApiParser, app: fromApiApp,
};
/** What the server keeps of its own on a live resource, beside the table's fields. */
const SERVER_OWN: Record<ResourceType, string[]> = {
  action: ['id', 'description', 'organization_id', 'archived_at', 'updated_at'],
  parser: ['id', 'action_id', 'archived_at', 'updated_at'],
  app: ['id', 'organization_id', 'archived_at', 'updated_at'],
};
/** Config keys that are no field: managing options, and what an action holds. */
const CONFIG_OWN = new Set(['id', 'protected', 'environments', 'renamed_from', 'parsers', 'tests', 'sessions']);

/** A value a schema accepts (the first of an enum, a one-element list...). */
function sample(schema: JsonSchema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.$ref === '#/$defs/step') return { kind: 'pin' };
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'array') return [sample(schema.items as JsonSchema)];
  if (type === 'integer') return 7;
  if (type === 'null') return null;
  return 'x';
}

const table = (kind: Kind<unknown, unknown>): FieldTable<Record<string, Field>> => kind.fields;
const resolvedSample = (kind: Kind<unknown, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(table(kind).planSchema().properties).map(([k, s]) => [k, sample(s)]));
const answerSample = (kind: Kind<unknown, unknown>): Record<string, unknown> => ({
  ...Object.fromEntries(Object.entries(table(kind).answerSchema().properties).map(([k, s]) => [k, sample(s)])),
  custom_action_public_id: 'a1', organization_id: 1, archived_at: null, updated_at: '2024-01-01T00:00:00Z', description: null,
});

describe.each(ALL_KINDS.map((k) => [k.type, k] as const))('the %s field table', (type, kind) => {
  const t = table(kind);

  it('is what the kind compares (`paths`), in the canonical forms\' order', () => {
    expect(kind.paths).toEqual(t.paths);
    expect([...kind.paths].sort()).toEqual([...t.names].sort());
    const live = FROM_API[type]({ id: 'L1', attributes: answerSample(kind) });
    expect(Object.keys(kind.canonicalLive(live))).toEqual(kind.paths);
    expect(Object.keys(kind.canonical(resolvedSample(kind), () => 'MTN'))).toEqual(kind.paths);
  });

  it('is what a saved plan holds, and the plan schema says exactly that', () => {
    const planned = kind.planJson(resolvedSample(kind));
    expect(Object.keys(planned)).toEqual(t.resolvedNames);
    const section = plan.$defs[`${type}Desired`];
    expect(section.additionalProperties).toBe(false);
    expect(section.required).toEqual(t.resolvedNames);
    expect(section.properties).toEqual(t.planSchema().properties);
    const ajv = new Ajv2020({ strict: false }).addSchema(plan);
    const validate = ajv.compile({ $ref: `${plan.$id}#/$defs/${type}Desired` });
    expect(validate(planned), JSON.stringify(validate.errors)).toBe(true);
  });

  it('is what the API answer\'s schema requires of the attributes, and what the client reads', () => {
    const attributes = json(`schemas/api/${type}.json`).properties.attributes;
    const { properties, required } = t.answerSchema();
    for (const [name, schema] of Object.entries(properties)) expect(attributes.properties[name], name).toEqual(schema);
    expect(attributes.required.filter((k: string) => t.names.includes(k))).toEqual(required);
    const live = FROM_API[type]({ id: 'L1', attributes: answerSample(kind) });
    expect(Object.keys(live).filter((k) => !SERVER_OWN[type].includes(k))).toEqual(t.names);
  });

  it('is what the config schema lists, with the table\'s values, and only optional fields have defaults', () => {
    const def = config.$defs[type];
    const props = Object.keys(def.properties);
    expect(props.filter((k) => !CONFIG_OWN.has(k))).toEqual(t.names);
    const needed = t.names.filter((n) => {
      const f = t.fields[n]!;
      return f.type === 'custom' ? !f.optional : f.default === undefined;
    });
    expect([...def.required].sort()).toEqual(needed.sort());
    for (const name of t.names) {
      const f = t.fields[name]!;
      const p = def.properties[name];
      if (f.type === 'choice') expect(p.enum, name).toEqual([...f.values]);
      if (f.type === 'text') expect(p.type, name).toBe('string');
      if (f.type === 'textOrNull') expect([p.type].flat(), name).toContain('string');
      if (f.type === 'whole') expect(p.type, name).toBe('integer');
    }
    // Export writes config keys the schema has.
    const live = FROM_API[type]({ id: 'L1', attributes: answerSample(kind) });
    for (const e of t.exportEntries(live as never)) expect(props, e.name).toContain(e.name);
  });
});

describe('the parser', () => {
  it('has one shape resolved and live: the live one adds only what the server keeps', () => {
    expectTypeOf<Omit<LiveParser, 'id' | 'action_id' | 'archived_at' | 'updated_at'>>().toEqualTypeOf<ResolvedParser>();
    const resolved = resolveParser(desiredParser({ target_type: 'sms', sender: 'MPESA' }));
    const live = fromApiParser({ id: 'p1', attributes: { ...resolved, custom_action_public_id: 'a1', archived_at: null, updated_at: 't' } });
    expect(Object.keys(resolved)).toEqual(Object.keys(PARSER_FIELDS));
    for (const [k, v] of Object.entries(resolved)) expect((live as unknown as Record<string, unknown>)[k], k).toEqual(v);
  });

  it('names each field once, for code that reads one (the message template)', () => {
    for (const name of Object.keys(PARSER_FIELDS)) expect(PARSER_FIELD[name as keyof typeof PARSER_FIELD]).toBe(name);
  });
});
