// Reading record files with a bound on each record (docs/replay.md "Limits"). readline builds a
// whole line as one string before handing it over, and JSON.parse then builds the whole document:
// a very long line took seconds and gigabytes, a longer one crashed V8 ("invalid size error").
// Here a line is collected as bytes and given up as soon as it passes the limit,
// so memory holds at most one limit's worth of it and nothing past the limit is read. Pure apart
// from consuming the stream it is given.

/** A line (or a `.json` file) longer than the limit: nothing past the limit was read. */
export class RecordTooLarge extends Error {
  constructor(readonly line: number, readonly maxBytes: number) {
    super(`line ${line} is longer than ${maxBytes} bytes`);
    this.name = 'RecordTooLarge';
  }
}

const LF = 0x0a;

/**
 * The lines of a byte stream, decoded as UTF-8, without their LF or CRLF; blank ones too, so the
 * caller's count is the line number. Throws RecordTooLarge for a line of more than `maxBytes`
 * (its CR included) before reading further. Lines end at LF only: a CR alone is JSON whitespace.
 */
export async function* boundedLines(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let size = 0;
  let line = 1;
  for await (const chunk of chunks) {
    let start = 0;
    for (let lf = chunk.indexOf(LF, start); lf >= 0; lf = chunk.indexOf(LF, start)) {
      if (size + (lf - start) > maxBytes) throw new RecordTooLarge(line, maxBytes);
      yield decode(parts, chunk.subarray(start, lf));
      parts = [];
      size = 0;
      line += 1;
      start = lf + 1;
    }
    if (start < chunk.length) {
      if (size + (chunk.length - start) > maxBytes) throw new RecordTooLarge(line, maxBytes);
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  }
  if (size > 0) yield decode(parts, Buffer.alloc(0));
}

function decode(parts: readonly Buffer[], last: Buffer): string {
  // UTF-8 never has an LF byte inside a character, so a line's bytes decode on their own.
  const text = parts.length === 0 ? last.toString('utf8') : Buffer.concat([...parts, last]).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** A whole stream (a `.json` record file) as UTF-8 text; RecordTooLarge (line 1) past `maxBytes`. */
export async function boundedText(chunks: AsyncIterable<Buffer>, maxBytes: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > maxBytes) throw new RecordTooLarge(1, maxBytes);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Where JSON text first nests deeper than `maxDepth` arrays and objects (a UTF-16 offset), or -1.
 * A loop, not a recursion, run before JSON.parse: what reads the parsed record recurses, and a
 * record nested 100,000 deep overflowed the stack there, reported without its line. Brackets in
 * strings do not count. Linear; a record with fewer brackets than the limit is not scanned at all.
 */
export function tooDeepAt(text: string, maxDepth: number): number {
  let brackets = 0;
  for (let i = text.indexOf('['); i >= 0 && brackets <= maxDepth; i = text.indexOf('[', i + 1)) brackets += 1;
  for (let i = text.indexOf('{'); i >= 0 && brackets <= maxDepth; i = text.indexOf('{', i + 1)) brackets += 1;
  if (brackets <= maxDepth) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return -1;
}
