// Every response body is checked against schemas/api/*.json before anything reads it, so a
// server answering with the wrong shape is one clear error naming the request and the field
// (`GET /api/actions: data[3].attributes.steps must be array`), not a TypeError later.
// Schemas are compiled once per process, on first use.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const DIR = fileURLToPath(new URL('../../schemas/api/', import.meta.url));
/** The schemas' `$id` prefix: refs resolve against it. */
const BASE = 'https://menuctl.dev/schemas/api/';
const FILES = [
  'action.json', 'parser.json', 'app.json', 'app-created.json', 'world-operator.json',
  'archived.json', 'authenticate.json', 'error.json',
] as const;

export type ResourceSchema = 'action' | 'parser' | 'app' | 'app-created' | 'world-operator';
/** What a response should be: one resource or a list in the `{ data }` envelope, or a bare body. */
export type Shape =
  | { one: ResourceSchema }
  | { list: ResourceSchema }
  | { body: 'archived' | 'authenticate' | 'error' };

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
  for (const file of FILES) ajv.addSchema(JSON.parse(readFileSync(DIR + file, 'utf8')) as object);
  return ajv;
}

function validator(shape: Shape): ValidateFunction {
  const key = JSON.stringify(shape);
  let fn = compiled.get(key);
  if (fn) return fn;
  const a = instance();
  if ('body' in shape) {
    fn = a.getSchema(`${BASE}${shape.body}.json`)!;
  } else {
    const ref = { $ref: `${BASE}${'one' in shape ? shape.one : shape.list}.json` };
    fn = a.compile({
      type: 'object',
      required: ['data'],
      properties: { data: 'one' in shape ? ref : { type: 'array', items: ref } },
    });
  }
  compiled.set(key, fn);
  return fn;
}

/** null when `body` has the shape, else a sentence naming the first wrong field. */
export function shapeProblem(shape: Shape, body: unknown): string | null {
  const fn = validator(shape);
  if (fn(body)) return null;
  return describe(fn.errors?.[0]);
}

/** `/data/3/attributes/steps` -> `data[3].attributes.steps` */
export function fieldPath(instancePath: string): string {
  let out = '';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(key) ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return out;
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'response has an unexpected shape';
  const at = fieldPath(error.instancePath);
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `${at ? `${at}.` : ''}${missing} is missing`;
  }
  if (error.keyword === 'const' || error.keyword === 'enum') {
    const allowed = error.keyword === 'const'
      ? JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)
      : (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ');
    return `${at || 'body'} must be ${error.keyword === 'const' ? '' : 'one of '}${allowed}`;
  }
  return `${at || 'body'} ${error.message ?? 'is invalid'}`;
}
