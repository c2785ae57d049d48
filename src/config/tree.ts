// A parsed YAML document as plain JS values plus a side table that remembers where each object
// member and array item came from, so any later finding (ajv instancePath, a semantic check) can
// point at file:line:col. Two parsers fill the same table: the fast one (js-yaml, ./fast-tree.ts)
// for every file, and the precise one (`yaml`, ./yaml-tree.ts) for files the fast one refuses.

import type { Diagnostic } from '../model/diagnostic.js';
import type { SourceLoc } from '../model/types.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Segment = string | number;

/**
 * Where one YAML node sits: `start` is its first character after any anchor or tag (for an empty
 * value, the spot after `key:` and its spaces, as `yaml` reports it); `end` bounds a scalar's text
 * (trailing blanks are trimmed when read).
 */
export interface PosNode { start: number; end: number }

/**
 * A mapping's or sequence's start and its children's [start, end] pairs, flat in `pos` (kid i at
 * 2i, 2i+1); for a mapping kids alternate key, value and `keys` names them. Plain numbers rather
 * than a node object per scalar: a 5 MiB config has 250,000 of them and the GC pays for each.
 */
export interface Entry { start: number; keys: string[] | null; pos: number[]; size: number }

export interface Child { key?: PosNode; value: PosNode }

/** Aliases may add at most this many nodes (or as many as the file has, if more): no billion laughs. */
export const MAX_ALIAS_NODES = 100_000;

export const pointer = (path: readonly Segment[]) => path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

export class ConfigTree {
  private readonly table = new Map<object, Entry>();
  private lineStarts: Uint32Array | null = null;
  root: Json = null;
  /** JSON pointers of values already reported (failed ${VAR}, unknown alias): their schema errors would be noise. */
  readonly reported = new Set<string>();
  /** Interpolation problems with the path of their value, to be given addresses once the tree exists. */
  readonly pending: { diagnostic: Diagnostic; path: Segment[] }[] = [];

  constructor(readonly file: string, readonly text: string) {}

  loc(offset: number): SourceLoc {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, col: offset - starts[lo]! + 1 };
  }

  nodeLoc(node: PosNode | undefined): SourceLoc {
    return this.loc(node?.start ?? 0);
  }

  record(obj: object, entry: Entry): void { this.table.set(obj, entry); }

  entry(obj: object): Entry | undefined { return this.table.get(obj); }

  /** The YAML node an object or array was read from. */
  nodeOf(obj: object): PosNode | undefined {
    const e = this.table.get(obj);
    return e ? { start: e.start, end: e.start } : undefined;
  }

  child(obj: object, seg: Segment): Child | undefined {
    const e = this.table.get(obj);
    if (!e) return undefined;
    const kid = (i: number): PosNode => ({ start: e.pos[2 * i]!, end: e.pos[2 * i + 1]! });
    if (e.keys === null) return typeof seg === 'number' && seg >= 0 && 2 * seg < e.pos.length ? { value: kid(seg) } : undefined;
    // Mappings in a config are small (a handful of keys), so a scan beats building a Map per object.
    const i = e.keys.lastIndexOf(String(seg));
    return i < 0 ? undefined : { key: kid(2 * i), value: kid(2 * i + 1) };
  }

  /** Location of an object or array read from the file (line 1 col 1 when unknown). */
  locOf(obj: object): SourceLoc {
    return this.loc(this.table.get(obj)?.start ?? 0);
  }

  /** Location of obj[seg] (its key with `key: true`), or of obj itself when seg is unknown. */
  at(obj: object, seg: Segment, opts: { key?: boolean } = {}): SourceLoc {
    const e = this.table.get(obj);
    if (!e) return this.loc(0);
    let kid = -1;
    if (e.keys === null) {
      if (typeof seg === 'number' && seg >= 0 && 2 * seg < e.pos.length) kid = seg;
    } else {
      const i = e.keys.lastIndexOf(String(seg));
      if (i >= 0) kid = opts.key ? 2 * i : 2 * i + 1;
    }
    return this.loc(kid < 0 ? e.start : e.pos[2 * kid]!);
  }

  /** Walks a path from the root; returns the deepest location found. */
  locate(path: readonly Segment[], opts: { key?: boolean } = {}): SourceLoc {
    let cur: Json = this.root;
    let loc = this.nodeLoc(cur && typeof cur === 'object' ? this.nodeOf(cur) : undefined);
    for (let i = 0; i < path.length; i++) {
      if (!cur || typeof cur !== 'object') break;
      const seg = Array.isArray(cur) ? Number(path[i]) : String(path[i]);
      loc = this.at(cur, seg, { key: opts.key && i === path.length - 1 });
      cur = (cur as Record<Segment, Json>)[seg] ?? null;
    }
    return loc;
  }

  /** A scalar's source text as written (keeps `press: 01` as "01"). */
  sourceOf(node: PosNode): string {
    return sourceText(this.text, node.start, node.end);
  }

  /** Location of character `index` of a scalar's value; exact on one-line scalars, else its start. */
  scalarIndexLoc(node: PosNode | undefined, index: number): SourceLoc {
    if (!node) return this.nodeLoc(node);
    const raw = this.sourceOf(node);
    if (raw.includes('\n')) return this.loc(node.start);
    return this.loc(node.start + rawOffset(raw, index));
  }
}

/** The fast parser's end can run past trailing blanks (up to a comment or the next line's indent). */
export function sourceText(text: string, start: number, end: number): string {
  return text.slice(start, end).trimEnd();
}

function lineStartsOf(text: string): Uint32Array {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  const starts = new Uint32Array(n);
  let k = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
  return starts;
}

/** Maps an index in a scalar's value to an offset in its one-line source (style read from its first character). */
function rawOffset(raw: string, index: number): number {
  const q = raw[0];
  if (q !== "'" && q !== '"') return q === '*' || q === '|' || q === '>' ? 0 : index;
  let r = 1;
  for (let v = 0; v < index && r < raw.length; v++) {
    if (q === "'") r += raw.startsWith("''", r) ? 2 : 1;
    else if (raw[r] !== '\\') r += 1;
    else {
      const e = raw[r + 1];
      r += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
    }
  }
  return r;
}

/** Defines a key as a plain own property: never through the `__proto__` setter. */
export function defineKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
