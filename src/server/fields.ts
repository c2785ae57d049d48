// Field checks that collect every problem with a JSON pointer (docs/api.md, "Bounds").

import { FieldErrors } from './errors.js';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `{ "<root>": { ... } }` wrapper every write body uses. */
export function rootObject(body: unknown, root: string, errs: FieldErrors): Obj | null {
  if (!isObj(body) || !isObj(body[root])) {
    errs.add(`/${root}`, 'required', `the body must be an object { "${root}": { ... } }`);
    return null;
  }
  return body[root] as Obj;
}

export interface StringRule {
  min: number;
  max: number;
  /** Refuse text with nothing visible in it (only whitespace, control or format characters). */
  notBlank?: boolean;
  required?: boolean;
  nullable?: boolean;
  pattern?: RegExp;
  patternHint?: string;
}

// With the u flag a surrogate class matches only unpaired halves: an emoji's pair is one code
// point. SQLite stores UTF-8, where a lone surrogate cannot exist: it would come back as U+FFFD,
// a value other than the one acknowledged, so such text is refused rather than altered.
const LONE_SURROGATE = /\p{Cs}/u;
// Whitespace (Unicode's, NBSP and U+3000 included), controls (NUL...) and format characters
// (zero-width space, BOM...): a name made only of these shows as nothing.
const NOTHING_VISIBLE = /^[\s\p{Cc}\p{Cf}]*$/u;

/**
 * Reads obj[key] as a string within bounds. Returns undefined when absent (and not required),
 * null when null is allowed and given, or the string. Problems go to errs.
 */
export function readString(obj: Obj, key: string, ptr: string, rule: StringRule, errs: FieldErrors): string | null | undefined {
  const pointer = `${ptr}/${key}`;
  const v = obj[key];
  if (v === undefined) {
    if (rule.required) errs.add(pointer, 'required', `${key} is required`);
    return undefined;
  }
  if (v === null) {
    if (rule.nullable) return null;
    errs.add(pointer, rule.required ? 'required' : 'invalid_type', `${key} must be a string, not null`);
    return undefined;
  }
  if (typeof v !== 'string') {
    errs.add(pointer, 'invalid_type', `${key} must be a string`);
    return undefined;
  }
  if (LONE_SURROGATE.test(v)) {
    errs.add(pointer, 'invalid_text', `${key} holds a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape): send well-formed Unicode text`);
    return undefined;
  }
  const len = [...v].length;
  if (rule.notBlank && len >= rule.min && NOTHING_VISIBLE.test(v)) {
    errs.add(pointer, 'blank', `${key} must contain something other than spaces, NUL or other invisible characters`);
    return undefined;
  }
  if (len < rule.min) {
    errs.add(pointer, rule.min === 1 ? 'blank' : 'too_short', `${key} must have at least ${rule.min} character(s)`);
    return undefined;
  }
  if (len > rule.max) {
    errs.add(pointer, 'too_long', `${key} must have at most ${rule.max} characters (got ${len})`);
    return undefined;
  }
  if (rule.pattern && !rule.pattern.test(v)) {
    errs.add(pointer, 'invalid_format', `${key} ${rule.patternHint ?? 'has an invalid format'}`);
    return undefined;
  }
  return v;
}

/** Reads obj[key] as one of `allowed`. */
export function readEnum<T extends string>(
  obj: Obj, key: string, ptr: string, allowed: readonly T[], required: boolean, errs: FieldErrors,
): T | undefined {
  const pointer = `${ptr}/${key}`;
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required || v === null) errs.add(pointer, 'required', `${key} is required: one of ${allowed.join(', ')}`);
    return undefined;
  }
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    errs.add(pointer, 'invalid_value', `${key} must be one of ${allowed.join(', ')}`);
    return undefined;
  }
  return v as T;
}

/** http(s) URL up to 2048 characters; null and "" mean "no URL". */
export function readUrl(obj: Obj, key: string, ptr: string, errs: FieldErrors): string | null | undefined {
  const v = readString(obj, key, ptr, { min: 0, max: 2048, nullable: true }, errs);
  if (v === undefined || v === null || v === '') return v === '' ? null : v;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    errs.add(`${ptr}/${key}`, 'invalid_format', `${key} must be an absolute http or https URL`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    errs.add(`${ptr}/${key}`, 'invalid_format', `${key} must use http or https (got ${url.protocol.replace(':', '')})`);
    return undefined;
  }
  return v;
}

/**
 * Now, ISO 8601 UTC in whole seconds (`2020-02-10T16:13:55Z`): the precision of every timestamp
 * the spec and Hover's documentation show; clients written against them may parse exactly that.
 */
export function nowIso(): string {
  return secondsIso(new Date().toISOString());
}

/** A stored timestamp in whole seconds (databases written before this kept milliseconds). */
export function secondsIso(iso: string): string;
export function secondsIso(iso: string | null): string | null;
export function secondsIso(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/\.\d+Z$/, 'Z');
}
