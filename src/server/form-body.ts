// Bodies of POST /api/authenticate: JSON, or a form. Hover's own Android runner logs in with
// multipart/form-data, and Rails-style APIs (as Hover's is) accept JSON, multipart and urlencoded
// alike; a 415 there turned away real clients. Every other route stays JSON only, as
// the spec says ("All request and response bodies are JSON"). See docs/api.md "Authentication".
//
// Forms are parsed by the fetch API's Request.formData() (undici, built into Node): a well-kept
// multipart and urlencoded parser, and no new dependency.

import type { IncomingMessage } from 'node:http';
import { httpError } from './errors.js';
import { readJson, readLimited } from './http-io.js';

const FORMS = new Set(['multipart/form-data', 'application/x-www-form-urlencoded']);

/** A form field that is a file, not text: kept apart so the route can say it must be text. */
const FILE_FIELD = Symbol('file field');

/** The body as JSON, or a form's text fields as an object (the last of a repeated name wins, as in Rails). */
export async function readJsonOrForm(req: IncomingMessage): Promise<unknown> {
  const contentType = req.headers['content-type'] ?? '';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return readJson(req);
  if (!FORMS.has(type)) {
    throw httpError(415, 'unsupported_media_type',
      'send the body as JSON (Content-Type: application/json), multipart/form-data or application/x-www-form-urlencoded', { header: 'Content-Type' });
  }
  const bytes = await readLimited(req);
  let form: FormData;
  try {
    form = await new Request('http://localhost/', { method: 'POST', headers: { 'content-type': contentType }, body: bytes }).formData();
  } catch (err) {
    throw httpError(400, 'malformed_form', `the body is not a valid ${type} form: ${(err as Error).message}`);
  }
  const fields: Array<[string, unknown]> = [];
  for (const [name, value] of form) fields.push([name, typeof value === 'string' ? value : FILE_FIELD]);
  // fromEntries defines own properties, so a field named __proto__ is only a field.
  return Object.fromEntries(fields);
}
