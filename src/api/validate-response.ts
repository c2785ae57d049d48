// Every response body is checked against schemas/api/*.json before anything reads it, so a
// server answering with the wrong shape is one clear error naming the request and the field
// (`GET /api/actions: data[3].attributes.steps must be array`), not a TypeError later.
// The validators are compiled ahead of time (scripts/gen-validators.mjs): no ajv compile at run time.

import type { ErrorObject } from 'ajv';
import * as validators from '../generated/api-validators.js';

export type ResourceSchema = 'action' | 'parser' | 'app' | 'app-created' | 'world-operator';
/** What a response should be: one resource or a list in the `{ data }` envelope, or a bare body. */
export type Shape =
  | { one: ResourceSchema }
  | { list: ResourceSchema }
  | { body: 'archived' | 'authenticate' | 'error' };

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function validator(shape: Shape): Validator {
  const name = 'body' in shape ? `body_${shape.body}` : 'one' in shape ? `one_${shape.one}` : `list_${shape.list}`;
  return (validators as Record<string, Validator>)[name.replace('-', '_')]!;
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
