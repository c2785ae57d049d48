// JSON for files people diff and machines read: 2-space indent, a trailing newline, and no
// secret-named key ever written, whatever a caller put in (defence in depth: the API client
// already strips secrets at the boundary, but a plan or report must never carry one).

const SECRET_KEYS = new Set(['token', 'webhook_secret', 'password', 'jwt', 'authorization']);

const withoutSecrets = (key: string, v: unknown): unknown => (SECRET_KEYS.has(key.toLowerCase()) ? undefined : v);

export function stableJson(value: unknown): string {
  return JSON.stringify(value, withoutSecrets, 2) + '\n';
}

/** A top-level array that stableJsonChunks writes one element at a time (its elements are read once per rendering). */
export class Elementwise {
  constructor(readonly items: Iterable<unknown>) {}
}

/** Marks `items` as a top-level array of a stableJsonChunks document. */
export const elementwise = (items: Iterable<unknown>): Elementwise => new Elementwise(items);

/** Most characters stableJsonChunks gathers into one chunk before yielding it. */
const CHUNK = 65_536;

/**
 * stableJson of an object, in pieces: the same bytes, but an Elementwise member is written one
 * element at a time, so no string holds the whole text (V8's longest string is ~512 M characters,
 * and a plan of 600,000 changes is longer). Every chunk ends with a newline and holds whole
 * elements, about CHUNK characters or one element when that is longer.
 *
 * The same as JSON.stringify's indentation, because it only adds: a value at depth d is its own
 * text with 2*d more spaces after each newline (a JSON string never holds a raw newline).
 */
export function* stableJsonChunks(doc: Readonly<Record<string, unknown>>): Generator<string> {
  // Each member's text, or its elements to write one by one; a member JSON leaves out is left out.
  const members: [string, string | Elementwise][] = [];
  for (const [key, raw] of Object.entries(doc)) {
    const v = withoutSecrets(key, raw);
    const text = v instanceof Elementwise ? v : JSON.stringify(v, withoutSecrets, 2);
    if (text !== undefined) members.push([key, text]);
  }
  if (members.length === 0) {
    yield '{}\n';
    return;
  }
  let out = '{\n';
  for (const [i, [key, v]] of members.entries()) {
    const comma = i < members.length - 1 ? ',' : '';
    const name = `  ${JSON.stringify(key)}: `;
    if (typeof v === 'string') {
      out += `${name}${indented(v, '  ')}${comma}\n`;
      continue;
    }
    let index = 0;
    let previous: string | undefined;
    for (const item of v.items) {
      out += previous === undefined ? `${name}[\n` : `${previous},\n`;
      if (out.length >= CHUNK) {
        yield out;
        out = '';
      }
      previous = `    ${indented(JSON.stringify(withoutSecrets(String(index++), item), withoutSecrets, 2) ?? 'null', '    ')}`;
    }
    out += previous === undefined ? `${name}[]${comma}\n` : `${previous}\n  ]${comma}\n`;
  }
  yield `${out}}\n`;
}

const indented = (text: string, by: string): string => text.replace(/\n/g, `\n${by}`);
