// JSON read in pieces, for a document longer than one JavaScript string can hold (V8: ~512 M
// characters; a big saved plan). The bytes come in chunks; the
// top-level object's members, and each element of a member that is an array, are cut out at
// their separators (depth, strings and escapes tracked byte by byte) and each is given to
// JSON.parse on its own. So every piece, and the whole, is checked as JSON.parse checks it, and
// what this scanner decides is only where one piece ends. Any other top-level value (an array, a
// string) is one piece.

/** Where a piece sits: [] the whole document, [key] a member, [key, i] an element of a member that is an array. */
export type PiecePath = readonly [] | readonly [string] | readonly [string, number];

/** The text is not JSON; the message says what and where, as JSON.parse's do. */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const enum S {
  Start, Whole, KeyOrEnd, Key, KeyString, Colon, ValueStart, Value, Element, AfterArray, After,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Reads JSON from chunks of UTF-8 (push each, then end): each piece is handed to `onPiece` as
 * it is parsed. A top-level object comes first as {} under [], then member by member; a member
 * that is an array first as [] under [key], then element by element. A piece is cut only at an
 * ASCII separator, so no character is split between two.
 */
export class JsonPieces {
  private state = S.Start;
  private parts: Uint8Array[] = [];
  private pieceAt = 0;
  private offset = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private key = '';
  private index = 0;

  constructor(private readonly onPiece: (path: PiecePath, value: unknown) => void) {}

  push(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = this.state === S.Whole || this.inPiece() ? 0 : -1;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      switch (this.state) {
        case S.Start:
          if (isSpace(b)) break;
          if (b === 0x7b) {
            this.onPiece([], {});
            this.state = S.KeyOrEnd;
          } else {
            this.state = S.Whole;
            start = this.begin(i);
          }
          break;
        case S.Whole:
          break;
        case S.KeyOrEnd:
        case S.Key:
          if (isSpace(b)) break;
          if (b === QUOTE) {
            this.state = S.KeyString;
            start = this.begin(i);
          } else if (b === 0x7d && this.state === S.KeyOrEnd) this.state = S.After;
          else this.fail(`Expected property name or '}' in JSON`, i);
          break;
        case S.KeyString:
          if (this.escaped) this.escaped = false;
          else if (b === BACKSLASH) this.escaped = true;
          else if (b === QUOTE) {
            this.key = this.parse(bytes, start, i + 1, 'a property name') as string;
            start = -1;
            this.state = S.Colon;
          }
          break;
        case S.Colon:
          if (isSpace(b)) break;
          if (b !== 0x3a) this.fail(`Expected ':' after property name in JSON`, i);
          this.state = S.ValueStart;
          break;
        case S.ValueStart:
          if (isSpace(b)) break;
          if (b === 0x5b) {
            this.onPiece([this.key], []);
            this.index = 0;
            this.state = S.Element;
            start = this.begin(i + 1);
          } else {
            this.state = S.Value;
            start = this.begin(i);
            i--; // scanned again as the piece's first byte
          }
          break;
        case S.Value:
        case S.Element: {
          if (!this.separator(b)) break;
          const element = this.state === S.Element;
          const closes = b !== 0x2c;
          if (closes && b !== (element ? 0x5d : 0x7d)) this.fail(`Unexpected '${String.fromCharCode(b)}' in JSON`, i);
          if (!element) {
            this.onPiece([this.key], this.parse(bytes, start, i, this.key));
            this.state = closes ? S.After : S.Key;
          } else if (!(closes && this.index === 0 && this.blank(bytes, start, i))) {
            const index = this.index++;
            this.onPiece([this.key, index], this.parse(bytes, start, i, `${this.key}[${index}]`));
          }
          start = element && !closes ? this.begin(i + 1) : -1;
          if (element && closes) this.state = S.AfterArray;
          break;
        }
        case S.AfterArray:
          if (isSpace(b)) break;
          if (b === 0x2c) this.state = S.Key;
          else if (b === 0x7d) this.state = S.After;
          else this.fail(`Expected ',' or '}' after property value in JSON`, i);
          break;
        case S.After:
          if (!isSpace(b)) this.fail('Unexpected non-whitespace character after JSON', i);
          break;
      }
    }
    if (start >= 0) this.parts.push(bytes.subarray(start));
    this.offset += bytes.length;
  }

  /** The end of the text: the whole document when it was one piece, which is then handed over. */
  end(): void {
    if (this.state === S.Whole) {
      this.onPiece([], this.parse(new Uint8Array(0), 0, 0, null));
      this.state = S.After;
    }
    if (this.state !== S.After) throw new JsonSyntaxError('Unexpected end of JSON input');
  }

  private inPiece(): boolean {
    return this.state === S.KeyString || this.state === S.Value || this.state === S.Element;
  }

  /** A piece starts at byte i of this chunk. */
  private begin(i: number): number {
    this.parts = [];
    this.pieceAt = this.offset + i;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    return i;
  }

  /** Scans one byte of a value; true when it ends the value (a `,` or closing bracket at depth 0). */
  private separator(b: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) this.inString = false;
      return false;
    }
    if (b === QUOTE) this.inString = true;
    else if (b === 0x7b || b === 0x5b) this.depth++;
    else if (b === 0x7d || b === 0x5d) {
      if (this.depth === 0) return true;
      this.depth--;
    } else if (b === 0x2c) return this.depth === 0;
    return false;
  }

  private blank(bytes: Uint8Array, start: number, end: number): boolean {
    for (const part of [...this.parts, bytes.subarray(start, end)]) if (!part.every(isSpace)) return false;
    return true;
  }

  /** JSON.parse of the piece that started at this.pieceAt and ends at byte `end` of this chunk. */
  private parse(bytes: Uint8Array, start: number, end: number, where: string | null): unknown {
    const text = Buffer.concat([...this.parts, bytes.subarray(start, end)]).toString('utf8');
    this.parts = [];
    try {
      return JSON.parse(text);
    } catch (err) {
      if (where === null) throw new JsonSyntaxError((err as Error).message);
      throw new JsonSyntaxError(`${(err as Error).message} (in ${where}, which starts at byte ${this.pieceAt})`);
    }
  }

  private fail(what: string, i: number): never {
    throw new JsonSyntaxError(`${what} at byte ${this.offset + i}`);
  }
}

/** The value of JSON read in chunks by JsonPieces: the same as JSON.parse of their text, without that text. */
export async function parseJsonChunks(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): Promise<unknown> {
  let doc: unknown;
  let list: unknown[] = [];
  const reader = new JsonPieces((path, value) => {
    if (path.length === 0) doc = value;
    else if (path.length === 1) {
      // As JSON.parse: an own property, whatever its name (`__proto__` too), the last one kept.
      Object.defineProperty(doc as object, path[0], { value, writable: true, enumerable: true, configurable: true });
      if (Array.isArray(value)) list = value;
    } else list.push(value);
  });
  for await (const chunk of chunks) reader.push(chunk);
  reader.end();
  return doc;
}
