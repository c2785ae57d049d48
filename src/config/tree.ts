// A parsed YAML document as plain JS values plus a side table that remembers which YAML node each
// object member and array item came from, so any later finding (ajv instancePath, a semantic check)
// can point at file:line:col. Converting ourselves, rather than doc.toJS(), lets us: interpolate
// ${VAR} with the scalar's position, bound alias expansion before anything walks the data, and
// define keys such as `__proto__` as plain own properties (never through the prototype setter).

import { isAlias, isMap, isScalar, isSeq, Scalar, type Document, type LineCounter, type Node } from 'yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import type { SourceLoc } from '../model/types.js';
import { interpolate } from './interpolate.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Segment = string | number;

interface Child { key?: Node; value: Node }
interface Entry { node: Node; children: Map<Segment, Child> }

/** Aliases may add at most this many nodes (or as many as the file has, if more): no billion laughs. */
export const MAX_ALIAS_NODES = 100_000;

export class ConfigTree {
  private readonly table = new WeakMap<object, Entry>();
  root: Json = null;
  /** JSON pointers of values already reported (failed ${VAR}, unknown alias): their schema errors would be noise. */
  readonly reported = new Set<string>();
  /** Interpolation problems with the path of their value, to be given addresses once the tree exists. */
  readonly pending: { diagnostic: Diagnostic; path: Segment[] }[] = [];

  constructor(readonly file: string, readonly text: string, private readonly lines: LineCounter) {}

  loc(offset: number): SourceLoc {
    const p = this.lines.linePos(offset);
    return { file: this.file, line: p.line, col: p.col };
  }

  nodeLoc(node: Node | undefined): SourceLoc {
    return this.loc(node?.range?.[0] ?? 0);
  }

  record(obj: object, entry: Entry): void { this.table.set(obj, entry); }

  /** The YAML node an object or array was read from. */
  nodeOf(obj: object): Node | undefined { return this.table.get(obj)?.node; }

  child(obj: object, seg: Segment): Child | undefined { return this.table.get(obj)?.children.get(seg); }

  /** Location of obj[seg] (its key with `key: true`), or of obj itself when seg is unknown. */
  at(obj: object, seg: Segment, opts: { key?: boolean } = {}): SourceLoc {
    const c = this.child(obj, seg);
    if (!c) return this.nodeLoc(this.nodeOf(obj));
    return this.nodeLoc(opts.key && c.key ? c.key : c.value);
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

  /** Location of character `index` of a scalar's value; exact on one-line scalars, else its start. */
  scalarIndexLoc(node: Node | undefined, index: number): SourceLoc {
    if (!node || !isScalar(node) || !node.range) return this.nodeLoc(node);
    const [start, end] = node.range;
    const raw = this.text.slice(start, end);
    if (raw.includes('\n')) return this.loc(start);
    return this.loc(start + rawOffset(raw, node.type, index));
  }
}

/** Maps an index in a scalar's value to an offset in its one-line source. */
function rawOffset(raw: string, type: Scalar['type'], index: number): number {
  if (type === Scalar.PLAIN) return index;
  if (type !== Scalar.QUOTE_SINGLE && type !== Scalar.QUOTE_DOUBLE) return 0;
  let r = 1;
  for (let v = 0; v < index && r < raw.length; v++) {
    if (type === Scalar.QUOTE_SINGLE) r += raw.startsWith("''", r) ? 2 : 1;
    else if (raw[r] !== '\\') r += 1;
    else {
      const e = raw[r + 1];
      r += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
    }
  }
  return r;
}

interface Walk {
  path: Segment[];
  doc: Document;
  tree: ConfigTree;
  env: Record<string, string | undefined>;
  diagnostics: Diagnostic[];
  memo: Map<Node, Json>;
}

const pointer = (path: readonly Segment[]) => path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

function defineKey(obj: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function scalarValue(node: Scalar, w: Walk): Json {
  const v = node.value;
  if (typeof v === 'string') {
    const r = interpolate(v, w.env);
    for (const issue of r.issues) {
      const diagnostic: Diagnostic = { severity: 'error', code: issue.code, message: issue.message, loc: w.tree.scalarIndexLoc(node, issue.index) };
      w.diagnostics.push(diagnostic);
      w.tree.pending.push({ diagnostic, path: [...w.path] });
      w.tree.reported.add(pointer(w.path));
    }
    return r.value;
  }
  if (typeof v === 'bigint') return Number(v);
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return String(v);
}

function convert(node: Node | null | undefined, w: Walk): Json {
  if (!node) return null;
  if (isAlias(node)) {
    const target = node.resolve(w.doc);
    if (!target) {
      w.diagnostics.push({ severity: 'error', code: 'yaml.unknown-alias', loc: w.tree.nodeLoc(node),
        message: `alias *${node.source} refers to no anchor defined before it. Define &${node.source} first.` });
      w.tree.reported.add(pointer(w.path));
      return null;
    }
    return convert(target, w);
  }
  const seen = w.memo.get(node);
  if (seen !== undefined) return seen; // an anchor used again by an alias: same value, converted once
  let out: Json;
  if (isScalar(node)) out = scalarValue(node, w);
  else if (isMap(node)) {
    const obj: Record<string, Json> = {};
    const children = new Map<Segment, Child>();
    w.tree.record(obj, { node, children });
    w.memo.set(node, obj);
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      if (k && !isScalar(k)) {
        w.diagnostics.push({ severity: 'error', code: 'yaml.complex-key', loc: w.tree.nodeLoc(k),
          message: 'keys must be plain strings, not lists or mappings.' });
        continue;
      }
      const key = k ? String(k.value ?? '') : '';
      w.path.push(key);
      defineKey(obj, key, convert(pair.value as Node | null, w));
      w.path.pop();
      children.set(key, { key: k ?? undefined, value: (pair.value as Node | null) ?? k! });
    }
    out = obj;
  } else if (isSeq(node)) {
    const arr: Json[] = [];
    const children = new Map<Segment, Child>();
    w.tree.record(arr, { node, children });
    w.memo.set(node, arr);
    node.items.forEach((item, i) => {
      w.path.push(i);
      arr.push(convert(item as Node, w));
      w.path.pop();
      children.set(i, { value: item as Node });
    });
    out = arr;
  } else out = null;
  w.memo.set(node, out);
  return out;
}

/** Nodes a node stands for once every alias is expanded; Infinity marks an alias cycle. */
function expandedSize(node: unknown, doc: Document, memo: Map<unknown, number>): number {
  if (!node || typeof node !== 'object') return 0;
  const known = memo.get(node);
  if (known !== undefined) return known;
  memo.set(node, Infinity); // in progress: reaching it again is a cycle
  let size = 1;
  if (isAlias(node)) size = expandedSize(node.resolve(doc), doc, memo);
  else if (isMap(node)) for (const p of node.items) size += expandedSize(p.value, doc, memo) + 1;
  else if (isSeq(node)) for (const item of node.items) size += expandedSize(item, doc, memo);
  memo.set(node, size);
  return size;
}

/** Finds the alias at which expansion goes over budget; null when within it. */
function aliasOverflow(doc: Document): { alias: Node; expanded: number; budget: number } | null {
  const memo = new Map<unknown, number>();
  let written = 0;
  const aliases: Node[] = [];
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    written++;
    if (isAlias(n)) aliases.push(n);
    else if (isMap(n)) for (const p of n.items) visit(p.value);
    else if (isSeq(n)) for (const item of n.items) visit(item);
  };
  visit(doc.contents);
  if (aliases.length === 0) return null;
  const budget = Math.max(MAX_ALIAS_NODES, written);
  let extra = 0;
  for (const a of aliases) {
    extra += expandedSize(a, doc, memo);
    if (extra > budget) return { alias: a, expanded: extra, budget };
  }
  return null;
}

/** Converts the document; returns undefined (with a located error) when aliases would expand too far. */
export function buildTree(doc: Document, tree: ConfigTree, env: Record<string, string | undefined>, diagnostics: Diagnostic[]): Json | undefined {
  const overflow = aliasOverflow(doc);
  if (overflow) {
    const what = Number.isFinite(overflow.expanded) ? `more than ${overflow.budget} nodes` : 'a cycle';
    diagnostics.push({ severity: 'error', code: 'yaml.alias-limit', loc: tree.nodeLoc(overflow.alias),
      message: `aliases expand to ${what} here (limit: ${MAX_ALIAS_NODES} nodes added by aliases, or the file's own size). Write the values out or use fewer nested aliases.` });
    return undefined;
  }
  tree.root = convert(doc.contents as Node | null, { path: [], doc, tree, env, diagnostics, memo: new Map() });
  return tree.root;
}
