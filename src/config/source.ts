// One config file as read: its text, its values as written, and positions on demand. Everything
// downstream names a place by its path from the root (['actions', 3, 'regex']); a path becomes
// file:line:col only when a finding is reported. The positions come from the `yaml` library's
// Document (node ranges), built on the first lookup and only for files that have findings: a
// clean run never pays for a positioned parse.

import { FAILSAFE_SCHEMA, load as loadYaml } from 'js-yaml';
import type { Document, Node } from 'yaml';
import type { SourceLoc } from '../model/types.js';
import { isAlias, isMap, isScalar, isSeq, yamlLib } from './yaml-lib.js';
import type { PackedText } from '../text/packed-text.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Segment = string | number;

/** Aliases may add at most this many nodes (or as many as the file has, if more): no billion laughs. */
export const MAX_ALIAS_NODES = 100_000;

/**
 * A path one level down, as an array of exactly its length: a spread (`[...path, k, i]`) leaves
 * room to grow, and every model object keeps its path.
 */
export const below = (path: readonly Segment[], ...more: Segment[]): Segment[] => path.concat(more);

export const pointer = (path: readonly Segment[]) => path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The options every `yaml` parse of a config uses, so positions match the diagnostics. */
export const YAML_OPTIONS = { prettyErrors: false, uniqueKeys: true, strict: true } as const;

export class ConfigSource {
  /**
   * Numbers whose text differs from their value (`press: 01`), by container and key: kept as
   * written. Weak: the values are released once the model is built (load.ts), and a container
   * copied for one environment's values (evaluate.ts) is dropped with them.
   */
  private readonly numberText = new WeakMap<object, Map<Segment, string>>();
  private document: Document | null;
  /** The Document was built here for positions (not handed over by the precise path): it may be dropped. */
  private ownDocument = false;
  private everPositioned: boolean;
  private lineStarts: Uint32Array | null = null;

  private readonly held: PackedText | string;

  /** `text`: the file's text, or its holder when the load may pack it (see text/packed-text.ts). */
  /**
   * Read by the precise path (handed its Document): anchors may be shared across items, and
   * js-yaml may read the text otherwise, so it is never located an item at a time.
   */
  private readonly readPrecisely: boolean;

  constructor(readonly file: string, text: string | PackedText, doc: Document | null = null) {
    this.held = text;
    this.readPrecisely = doc !== null;
    this.document = doc;
    this.everPositioned = doc !== null;
  }

  get text(): string {
    return typeof this.held === 'string' ? this.held : this.held.text;
  }

  /** The holder of the text, when it has one (a file read from disk). */
  get holder(): PackedText | undefined {
    return typeof this.held === 'string' ? undefined : this.held;
  }

  /** Records that container[key] was written as `text` (only when that differs from String(value)). */
  rememberNumber(container: object, key: Segment, text: string): void {
    let m = this.numberText.get(container);
    if (!m) this.numberText.set(container, (m = new Map()));
    m.set(key, text);
  }

  /** `copy`, a copy of `container` with the same keys, has its numbers written as the original's. */
  carryNumbers(container: object, copy: object): void {
    const m = this.numberText.get(container);
    if (m) this.numberText.set(copy, m);
  }

  /** A scalar as written: `press: 01` is "01", not "1"; a string is itself. */
  written(container: object, key: Segment): string | undefined {
    const v = (container as Record<Segment, unknown>)[key];
    if (typeof v === 'string') return v;
    if (typeof v !== 'number') return undefined;
    return this.numberText.get(container)?.get(key) ?? String(v);
  }

  private doc(): Document {
    if (!this.document) {
      this.document = yamlLib().parseDocument(this.text, YAML_OPTIONS);
      this.ownDocument = true;
      this.everPositioned = true;
    }
    return this.document;
  }

  /**
   * Drops a Document built for positions (it weighs many times the file's text); the next lookup
   * builds it again. Resolved locations stay resolved.
   */
  releasePositions(): void {
    // Any Document: one the precise path handed over is built again from the same text, alike.
    this.document = null;
    this.ownDocument = false;
    // The last item's Document too: its text is a slice of the file's, and kept the whole
    // (inflated) text alive, one per file analyze had findings in.
    this.lastItem = null;
    // A packed text goes back to its packed form, and its line starts (4 bytes a line) with it.
    if (typeof this.held !== 'string' && this.held.isPacked) {
      this.held.release();
      this.lineStarts = null;
    }
  }

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

  /**
   * Where the node at path is (aliases followed), or the deepest node found on the way, and its
   * key. A big file read by the fast path is located through the one item of a top-level list
   * the path is in (`fragment`), not a Document of the whole file.
   */
  private find(path: readonly Segment[]): Found {
    const inItem = this.findInItem(path);
    if (inItem) return inItem;
    const doc = this.doc();
    return walk(doc, doc.contents as Node | null, path, 0);
  }

  /** Where path's value starts (its key with `key: true`); the deepest existing node when path runs out. */
  locate(path: readonly Segment[], opts: { key?: boolean } = {}): SourceLoc {
    const { start, keyStart, found } = this.find(path);
    return this.loc(found && opts.key && keyStart !== null ? keyStart : start);
  }

  /**
   * Items of the top-level lists, by key: [start, end) of each, in a row (see ItemSpans). Recorded
   * by the fast path's read (recordItemSpans), else worked out on first use.
   */
  private items: Map<string, Uint32Array> | null = null;
  /**
   * How many items each top-level list has, as the fast path read them: item spans that count
   * otherwise are not used (a file js-yaml and `yaml` read differently would be located in the
   * wrong item, silently).
   */
  readonly listLengths = new Map<string, number>();
  /** The last item parsed on its own, by `key/index`: findings come in file order, several per item. */
  private lastItem: { id: string; doc: Document; base: number; block: boolean } | null = null;

  /**
   * `find` for a path into an item of a top-level list (`actions`, `apps`) of a big file the fast
   * path read: that item's text parsed alone and its offsets shifted. A Document of a whole big
   * file weighs many times its text; analyze or validate with findings all over such a file built
   * one per file. Null when the path is not in such an item, or the file is small or
   * has its Document already (the precise path's, which sees aliases across items).
   */
  /**
   * The item spans recorded by the fast path's js-yaml read of this text (ItemSpans): working them
   * out later took a js-yaml pass of its own, whose values (all alive until it ends) reached V8's
   * old space, once per file analyze or validate had findings in.
   */
  recordItemSpans(spans: Map<string, Uint32Array>): void {
    this.items = spans;
  }

  /** Where path's top-level list item is, when this file is located an item at a time. */
  private itemSpan(path: readonly Segment[]): [number, number] | undefined {
    const length = typeof this.held === 'string' ? this.held.length : this.held.length;
    if (this.readPrecisely || this.document || length < ITEM_LOOKUP_FROM || path.length < 2 || typeof path[0] !== 'string') return undefined;
    const index = Number(path[1]);
    if (!Number.isInteger(index)) return undefined;
    this.items ??= itemSpans(this.text);
    const list = this.items.get(path[0]);
    if (!list || list.length !== 2 * this.listLengths.get(path[0])! || index < 0 || 2 * index >= list.length) return undefined;
    return [list[2 * index]!, list[2 * index + 1]!];
  }

  private findInItem(path: readonly Segment[]): Found | null {
    const span = this.itemSpan(path);
    if (!span) return null;
    const index = Number(path[1]);
    const id = `${path[0]}/${index}`;
    if (this.lastItem?.id !== id) {
      const line = this.text.lastIndexOf('\n', span[0] - 1) + 1;
      // A block item is parsed from the start of its line (its indentation and `- ` included), as a
      // list of one; a flow item (`{...}` inside `[...]`) as itself.
      const block = /^[ \t]*-(?:[ \t]|$)/.test(this.text.slice(line, span[0]) || '-');
      const base = block ? line : span[0];
      const doc = yamlLib().parseDocument(this.text.slice(base, span[1]), YAML_OPTIONS);
      if (doc.errors.length > 0) return null;
      this.lastItem = { id, doc, base, block };
    }
    const { doc, base, block } = this.lastItem!;
    const top = doc.contents as Node | null;
    const item = block ? (top && isSeq(top) ? (top.items[0] as Node | null) ?? null : null) : top;
    if (!item) return null;
    this.everPositioned = true;
    const found = walk(doc, item, path, 2);
    return { ...found, start: found.start + base, end: found.end + base, keyStart: found.keyStart === null ? null : found.keyStart + base };
  }

  /**
   * A location that is worked out when its line or column is first read. Code that only passes
   * locations along (the planner keeps one per resource, in case it reports something) costs
   * nothing; JSON, equality and spreads see a plain { file, line, col }.
   */
  lazyLocate(path: readonly Segment[]): SourceLoc {
    const loc = { file: this.file } as SourceLoc;
    // The getters are shared, the state hidden under a symbol: a plan keeps one of these per
    // resource, and a closure pair each cost several times this.
    Object.defineProperty(loc, LAZY, { value: { src: this, path, resolved: undefined } satisfies LazyState });
    Object.defineProperty(loc, 'line', LINE);
    Object.defineProperty(loc, 'col', COL);
    return loc;
  }

  /** Whether positions were ever needed: the `yaml` Document has been built (it may have been released since). */
  get positioned(): boolean {
    return this.everPositioned;
  }

  /** Location of character `index` of the string at path; exact on one-line scalars, else its start. */
  charLoc(path: readonly Segment[], index: number): SourceLoc {
    const { start, end, scalar, found } = this.find(path);
    if (!found || !scalar) return this.loc(start);
    const raw = this.text.slice(start, end).trimEnd();
    return this.loc(raw.includes('\n') ? start : start + rawOffset(raw, index));
  }
}

/** A node's place: its range, its key's start (a list item has none), and whether it is a scalar. */
interface Found { start: number; end: number; keyStart: number | null; scalar: boolean; found: boolean }

/** Files from this size are located an item at a time (ConfigSource.findInItem). */
const ITEM_LOOKUP_FROM = 1024 * 1024;

/** From `node` (at path[from]), down the rest of path: the node there, or the deepest one on the way. */
function walk(doc: Document, start: Node | null, path: readonly Segment[], from: number): Found {
  let node = start;
  let key: Node | null = null;
  let found = true;
  for (let i = from; i < path.length; i++) {
    const at = child(node && isAlias(node) ? (node.resolve(doc) as Node | undefined) ?? null : node, path[i]!);
    if (!at) {
      found = false;
      break;
    }
    node = at.value;
    key = at.key;
  }
  const begin = node?.range?.[0] ?? 0;
  return { start: begin, end: node?.range?.[1] ?? begin, keyStart: key?.range?.[0] ?? null, scalar: node !== null && isScalar(node), found };
}

/**
 * Where each item of each top-level list starts and ends, by the list's key, from the events of a
 * js-yaml load (`listener`, given to js-yaml's `load`), keeping two numbers per item. The top-level
 * keys are at the depth of the first node to close (the first key: 2 in a block mapping, 3 in a
 * flow one, which js-yaml opens twice); a node there is a key when a `:` follows it.
 */
export class ItemSpans {
  private readonly spans = new Map<string, number[]>();
  private depth = 0;
  private top = 0;
  private key: string | null = null;
  private itemStart = 0;
  private items: number[] = [];

  constructor(private readonly text: string) {}

  /** For the files located an item at a time (ConfigSource.findInItem); undefined for the others. */
  static recorder(text: string): ItemSpans | undefined {
    return text.length >= ITEM_LOOKUP_FROM ? new ItemSpans(text) : undefined;
  }

  readonly listener = (type: 'open' | 'close', state: { position: number; kind: string | null; result: unknown }): void => {
    if (type === 'open') {
      this.depth++;
      if (this.top > 0 && this.depth === this.top + 1) this.itemStart = state.position;
      return;
    }
    if (this.top === 0) this.top = this.depth;
    if (this.depth === this.top) {
      if (/^[ \t]*:/.test(this.text.slice(state.position, state.position + 64))) {
        this.key = String(state.result);
        this.items = [];
      } else {
        if (this.key !== null && state.kind === 'sequence') this.spans.set(this.key, this.items);
        this.key = null;
      }
    } else if (this.depth === this.top + 1 && this.key !== null) this.items.push(this.itemStart, state.position);
    this.depth--;
  };

  /** Each list's items as [start, end) pairs in a row: start0, end0, start1, end1, ... */
  result(): Map<string, Uint32Array> {
    return new Map([...this.spans].map(([key, items]) => [key, Uint32Array.from(items)]));
  }
}

/**
 * ItemSpans of a whole text, by a js-yaml pass of its own (for a file whose read did not record
 * them); empty when the text does not load.
 */
function itemSpans(text: string): Map<string, Uint32Array> {
  const spans = new ItemSpans(text);
  try {
    loadYaml(text, { schema: FAILSAFE_SCHEMA, listener: spans.listener as never });
  } catch {
    return new Map();
  }
  return spans.result();
}

const LAZY = Symbol('menuctl.lazy-loc');

interface LazyState { src: ConfigSource; path: readonly Segment[]; resolved: SourceLoc | undefined }

function lazyState(loc: object): LazyState | undefined {
  return (loc as { [LAZY]?: LazyState })[LAZY];
}

function resolvedOf(state: LazyState): SourceLoc {
  state.resolved ??= state.src.locate(state.path);
  return state.resolved;
}

const LINE: PropertyDescriptor = { get(this: object) { return resolvedOf(lazyState(this)!).line; }, enumerable: true, configurable: true };
const COL: PropertyDescriptor = { get(this: object) { return resolvedOf(lazyState(this)!).col; }, enumerable: true, configurable: true };

/** A mapping's pair for a key (the last one, as values are read), or a sequence's item. */
function child(node: Node | null, seg: Segment): { key: Node | null; value: Node | null } | undefined {
  if (node && isMap(node)) {
    for (let i = node.items.length - 1; i >= 0; i--) {
      const pair = node.items[i]!;
      const k = pair.key as Node | null;
      const name = k && isScalar(k) ? String(k.value ?? '') : k ? undefined : '';
      if (name === String(seg)) return { key: k, value: (pair.value as Node | null) ?? k };
    }
    return undefined;
  }
  if (node && isSeq(node)) {
    const i = Number(seg);
    if (!Number.isInteger(i) || i < 0 || i >= node.items.length) return undefined;
    return { key: null, value: (node.items[i] as Node | null) ?? node };
  }
  return undefined;
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
