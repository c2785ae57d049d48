// The `app` payload: name, package_name, webhook_url. token, webhook_secret and the other
// server-set fields are read-only and ignored when sent.

import { FieldErrors } from './errors.js';
import { readString, readUrl, rootObject } from './fields.js';
import type { AppFields } from './store-apps.js';

// Android application id: at least two segments, each starting with a letter.
export const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
export const APP_BOUNDS = { name: 255, package_name: 255, webhook_url: 2048 } as const;

const P = '/app';

export function readAppInput(body: unknown, mode: 'create' | 'patch'): Partial<AppFields> {
  const errs = new FieldErrors();
  const obj = rootObject(body, 'app', errs);
  errs.throwIfAny();
  const required = mode === 'create';
  const out: Partial<AppFields> = {};
  const name = readString(obj!, 'name', P, { min: 1, max: APP_BOUNDS.name, required, notBlank: true }, errs);
  if (typeof name === 'string') out.name = name;
  const pkg = readString(obj!, 'package_name', P, {
    min: 1, max: APP_BOUNDS.package_name, required, pattern: PACKAGE_NAME,
    patternHint: 'must be an Android package name such as com.example.agent',
  }, errs);
  if (typeof pkg === 'string') out.package_name = pkg;
  const url = readUrl(obj!, 'webhook_url', P, errs);
  if (url !== undefined) out.webhook_url = url;
  errs.throwIfAny();
  return out;
}
