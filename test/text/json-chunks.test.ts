// JSON written and read in pieces (issue 36 item 9): a plan of 600,000 changes is longer than a
// JavaScript string can hold, so its JSON is written by stableJsonChunks and read by JsonPieces,
// and each must be exactly what stableJson and JSON.parse are on anything that fits in a string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJsonChunks } from '../../src/text/json-pieces.js';
import { elementwise, stableJson, stableJsonChunks } from '../../src/text/stable-json.js';

/** Any string, lone surrogates, control characters, quotes and U+2028 included. */
const anyString = fc.string({ unit: 'binary', maxLength: 12 });
const value = fc.jsonValue({ maxDepth: 3, depthSize: 'small' });
const key = fc.oneof(anyString, fc.constantFrom('token', 'Password', 'changes', '0', '__proto__'));

/** A document: plain members, and members marked elementwise (an array or an undefined member among them). */
const doc = fc.uniqueArray(fc.tuple(key, fc.oneof(value, fc.array(value, { maxLength: 6 }).map((a) => ({ list: a })), fc.constant(undefined))), {
  selector: ([k]) => k, maxLength: 6,
});

const plain = (members: [string, unknown][]) => Object.fromEntries(members.map(([k, v]) => [k, isList(v) ? v.list : v]));
const chunked = (members: [string, unknown][]) => Object.fromEntries(members.map(([k, v]) => [k, isList(v) ? elementwise(v.list) : v]));
const isList = (v: unknown): v is { list: unknown[] } => typeof v === 'object' && v !== null && !Array.isArray(v) && Array.isArray((v as { list?: unknown }).list) && Object.keys(v).length === 1;

describe('stableJsonChunks', () => {
  it('is stableJson byte for byte, in pieces of whole lines (secret-named keys left out the same way)', () => {
    fc.assert(fc.property(doc, (members) => {
      const chunks = [...stableJsonChunks(chunked(members))];
      expect(chunks.join('')).toBe(stableJson(plain(members)));
      for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    }), { numRuns: 500 });
  });

  it('writes a long list in pieces of ~64 KB of whole elements, none much longer than that or than one element', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, text: 'x'.repeat(i % 97) }));
    items[5_000] = { i: 5_000, text: 'y'.repeat(300_000) };
    const chunks = [...stableJsonChunks({ head: 1, items: elementwise(items), tail: [] })];
    expect(chunks.join('')).toBe(stableJson({ head: 1, items, tail: [] }));
    expect(chunks.length).toBeGreaterThan(10);
    const longestElement = 300_000 + 100;
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(65_536 + longestElement);
    expect(chunks.filter((c) => c.length > 70_000)).toHaveLength(1);
  });

  it('makes each element only when it is written (a list is not copied first)', () => {
    let made = 0;
    const lazy = { *[Symbol.iterator]() { for (let i = 0; i < 100_000; i++) { made++; yield { i }; } } };
    const it = stableJsonChunks({ items: elementwise(lazy) });
    it.next();
    expect(made).toBeLessThan(100_000);
  });
});

/** `text`'s UTF-8 bytes in chunks cut at the given places (inside a character too). */
function cut(text: string, at: number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

/** JSON.parse of the text as a file holds it (UTF-8: a lone surrogate is U+FFFD there), and parseJsonChunks of its bytes in chunks. */
async function both(text: string, at: number[]): Promise<{ parse: unknown; pieces: unknown }> {
  let parse: unknown;
  let pieces: unknown;
  try {
    parse = { ok: JSON.parse(Buffer.from(text, 'utf8').toString('utf8')) as unknown };
  } catch {
    parse = 'SyntaxError';
  }
  try {
    pieces = { ok: await parseJsonChunks(cut(text, at)) };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    pieces = 'SyntaxError';
  }
  return { parse, pieces };
}

const cuts = fc.array(fc.nat(), { maxLength: 8 });
const layout = fc.constantFrom<[string | number | undefined]>([undefined], [2], ['\t'], [' \r\n']);

describe('parseJsonChunks', () => {
  it('gives what JSON.parse gives, however the text is laid out and cut', async () => {
    await fc.assert(fc.asyncProperty(doc, value, fc.boolean(), layout, cuts, async (members, other, object, [space], at) => {
      const text = JSON.stringify(object ? plain(members) : other, null, space as string) ?? 'null';
      const { parse, pieces } = await both(` ${text}\n`, at);
      expect(pieces).toEqual(parse);
    }), { numRuns: 500 });
  });

  it('refuses exactly what JSON.parse refuses: a text with one character removed, added or changed', async () => {
    const edit = fc.tuple(fc.nat(), fc.constantFrom('', ',', ':', '[', ']', '{', '}', '"', '\\', ' ', 'x', '1', '\u00e9'), fc.boolean());
    await fc.assert(fc.asyncProperty(doc, edit, cuts, async (members, [where, insert, replace], at) => {
      const text = JSON.stringify(plain(members), null, 1);
      const i = where % (text.length + 1);
      const mutated = text.slice(0, i) + insert + text.slice(replace ? i + 1 : i);
      const { parse, pieces } = await both(mutated, at);
      expect(pieces).toEqual(parse);
    }), { numRuns: 2_000 });
  });

  it.each([
    ['', 'Unexpected end of JSON input'],
    ['{"a": 1', 'Unexpected end of JSON input'],
    ['{"a": [1, 2}', "Unexpected '}' in JSON at byte 11"],
    ['{"a": 1,}', "Expected property name or '}' in JSON at byte 8"],
    ['{"a" 1}', "Expected ':' after property name in JSON at byte 5"],
    ['{"a": [1] 2}', "Expected ',' or '}' after property value in JSON at byte 10"],
    ['{"a": 1} x', 'Unexpected non-whitespace character after JSON at byte 9'],
  ])('says what is wrong and where: %j', async (text, message) => {
    await expect(parseJsonChunks([text])).rejects.toThrow(message);
  });

  it('names the member or element a bad value is in, and the byte it starts at', async () => {
    await expect(parseJsonChunks(['{"changes": [{"op": 1}, {"op": x}]}'])).rejects.toThrow(/\(in changes\[1\], which starts at byte 23\)$/);
  });
});
