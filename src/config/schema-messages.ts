// Sentences for schema errors: what is wrong, where in the config's terms, and what to do.

import { STEP_KINDS } from '../model/types.js';
import type { ErrorObject } from 'ajv';
import { didYouMean, suggest } from '../text/suggest.js';
import type { Segment } from './source.js';

export interface SchemaMessage {
  code: string;
  message: string;
  /** Point at this key of the failing object instead of the object itself. */
  keyPath?: string;
}

const CONTEXT: Record<string, string> = {
  actions: 'action', parsers: 'parser', tests: 'fixture', apps: 'app', steps: 'step', operators: 'operator',
};

/** "a parser", "an action", "the config"... for the object at path. */
function where(path: readonly Segment[]): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = String(path[i]);
    if (/^\d+$/.test(seg)) continue;
    if (seg === 'expect') return '`expect`';
    if (seg === 'variables') return '`variables`';
    const name = CONTEXT[seg];
    if (name) return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
    return `\`${seg}\``;
  }
  return 'the top level';
}

/** The key being described, e.g. `transport_type`, or the list it is an item of. */
function subject(path: readonly Segment[]): string {
  const last = path[path.length - 1];
  if (last === undefined) return 'the config';
  if (/^\d+$/.test(String(last))) return `each item of \`${String(path[path.length - 2])}\``;
  return `\`${String(last)}\``;
}

export function show(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return `a ${typeof v}`;
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a mapping', array: 'a list', string: 'a string', integer: 'an integer', number: 'a number',
  boolean: 'true or false', null: 'null',
};

const PATTERN_HINTS: Record<string, string> = {
  press: 'takes the option to press: digits, * or # (e.g. `press: 1`)',
  variable: 'takes a variable name: letters, digits and _ (e.g. `variable: amount`)',
  select: 'takes a variable name: letters, digits and _ (e.g. `select: bundle`)',
  package_name: 'must be an Android package name such as `com.example.agent`',
  webhook_url: 'must be an http:// or https:// URL (checked after ${VAR} interpolation)',
};

function fromAjv(e: ErrorObject, path: readonly Segment[], value: unknown): SchemaMessage {
  const p = e.params as Record<string, unknown>;
  const last = String(path[path.length - 1] ?? '');
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
      const hint = didYouMean(key, allowed) || ` Allowed keys: ${allowed.join(', ')}.`;
      return { code: 'schema.additional-property', keyPath: key, message: `unknown key \`${show(key)}\` in ${where(path)}.${hint}` };
    }
    case 'required':
      return { code: 'schema.required', message: `${where(path)} is missing the required key \`${String(p.missingProperty)}\`. Add it.` };
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map(String);
      const hint = typeof value === 'string' ? didYouMean(value, allowed) : '';
      return { code: 'schema.enum', message: `\`${show(value)}\` is not a valid ${last || 'value'}: use one of ${allowed.join(', ')}.${hint}` };
    }
    case 'const':
      if (last === 'version') return { code: 'schema.version', message: `unsupported version \`${show(value)}\`: this menuctl reads config format version 1. Write \`version: 1\`.` };
      if (last === 'expect') return { code: 'schema.type', message: `\`expect\` must be \`none\` or a mapping such as {category: ..., status: ..., variables: {...}}; got \`${show(value)}\`.` };
      return { code: 'schema.const', message: `\`${last}:\` takes \`${show(p.allowedValue)}\`${last === 'pin' || last === 'ok' ? ` (or write the step as just \`${last}\`)` : ''}.` };
    case 'type': {
      const want = String(p.type).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ');
      return { code: 'schema.type', message: `${subject(path)} must be ${want}, not ${typeName(value)}.` };
    }
    case 'pattern':
      return { code: 'schema.pattern', message: `${subject(path)} ${PATTERN_HINTS[last] ?? `must match ${String(p.pattern)}`}; got \`${show(value)}\`.` };
    case 'minLength':
      return { code: 'schema.empty', message: `${subject(path)} must not be empty.` };
    case 'maxLength':
    case 'maxItems': {
      const count = e.keyword === 'maxLength' ? [...String(value)].length : (value as unknown[]).length;
      const unit = e.keyword === 'maxLength' ? 'characters' : 'items';
      return { code: 'schema.too-long', message: `${subject(path)} has ${count.toLocaleString('en')} ${unit}; the API accepts at most ${String(p.limit)} (apply would fail on it). Shorten it.` };
    }
    case 'minItems':
      return { code: 'schema.min-items', message: `${subject(path)} needs at least ${String(p.limit)} item(s).` };
    case 'minimum':
      return { code: 'schema.minimum', message: `${subject(path)} must be at least ${String(p.limit)}.` };
    default:
      return { code: 'schema.invalid', message: `${subject(path)} ${e.message ?? 'is invalid'}.` };
  }
}

const STEP_HELP = 'A step is one of: `press: N`, `variable: name`, `select: name`, `pin`, `ok`.';

/** `- press 1` or `- press:1`: a step kind and its value without the `: ` YAML needs between them. */
const GLUED_STEP = /^(press|variable|select)(?:\s+|:)(\S.*)$/;

function unknownKind(word: string): string {
  const glued = GLUED_STEP.exec(word);
  if (glued) {
    return `\`${show(word)}\` is read as one word: a step kind and its value need a colon and a space between them. Write \`${glued[1]}: ${show(glued[2]!.trim())}\`.`;
  }
  const [best] = suggest(word, STEP_KINDS);
  return `unknown step kind \`${show(word)}\`: ${best ? `did you mean \`${best}\`?` : STEP_HELP}`;
}

/** One message for a step whose kind is unknown, mixed or of the wrong type; null if none applies. */
function step(value: unknown, kinds: string[]): SchemaMessage | null {
  if (typeof value === 'string') {
    return { code: 'schema.step-kind', message: unknownKind(value) };
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    if (kinds.length > 1) {
      return { code: 'schema.step-kinds', message: `a step has exactly one kind, but this one has ${kinds.map((k) => `\`${k}\``).join(' and ')}. Split it into separate steps.` };
    }
    const first = Object.keys(value)[0];
    if (first === undefined) return { code: 'schema.step-kind', message: `empty step. ${STEP_HELP}` };
    return { code: 'schema.step-kind', message: unknownKind(first) };
  }
  return { code: 'schema.step-kind', message: `a step cannot be ${typeName(value)}. ${STEP_HELP}` };
}

export const schemaMessage = { fromAjv, step };
