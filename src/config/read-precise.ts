// The precise path: a `yaml` Document -> plain values, as written (a `${VAR}` is left for
// ./evaluate.ts). Slow on big files (a positioned node per scalar), so it runs only for files the
// fast path refused; its diagnostics are the reference (every duplicate key, unknown aliases,
// complex keys, tags, multi-document files), and the same Document then answers the file's
// position lookups (./source.ts).

import type { Document, Node, Scalar } from 'yaml';
import { isAlias, isMap, isScalar, isSeq } from './yaml-lib.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { ussdAliasAdvice } from './yaml-advice.js';
import { defineKey, MAX_ALIAS_NODES, pointer, type ConfigSource, type Json, type Segment } from './source.js';
import { ownCopy } from '../text/string-pool.js';

/** What reading the values finds besides them; evaluation (./evaluate.ts) works from it. */
export interface ReadNotes {
  /** Paths of the strings that hold `${`, each where it is written (not again where an alias repeats it). */
  sites: Segment[][];
  /**
   * Where an alias repeats an anchor read earlier at `target`, in the order written. The two
   * share one value (a mapping or list is the same object); a string repeated this way is
   * interpolated once, at the anchor, and the alias takes the result.
   */
  aliases: { path: Segment[]; target: Segment[] }[];
  /** JSON pointers of values already reported (an unknown alias): their schema errors would be noise. */
  reported: Set<string>;
}

interface Walk {
  path: Segment[];
  doc: Document;
  src: ConfigSource;
  diagnostics: Diagnostic[];
  notes: ReadNotes;
  memo: Map<Node, Json>;
  /** Where each anchored node was read. */
  anchors: Map<Node, Segment[]>;
}

/** Where a node starts, as every diagnostic of this path reports it. */
const startOf = (node: Node | null | undefined): number => node?.range?.[0] ?? 0;

function scalarValue(node: Scalar, w: Walk): Json {
  const v = node.value;
  if (typeof v === 'string') {
    if (v.includes('${')) w.notes.sites.push([...w.path]);
    // Its own copy: `yaml` slices values out of the file's text, which the slice would keep alive.
    return ownCopy(v);
  }
  if (typeof v === 'bigint') return Number(v);
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return String(v);
}

/** Keeps a number's text where it differs from its value (`press: 01`). */
function rememberText(node: Node | null, value: Json, container: object, key: Segment, w: Walk): void {
  if (typeof value !== 'number' || !node || !isScalar(node) || typeof node.source !== 'string') return;
  const text = node.source;
  // Only a plain scalar's text is its number as written (an alias or a flow value reads otherwise).
  if (text !== String(value) && /^[-+.0-9]/.test(text)) w.src.rememberNumber(container, key, text);
}

function convert(node: Node | null | undefined, w: Walk): Json {
  if (!node) return null;
  if (isAlias(node)) {
    const target = node.resolve(w.doc);
    if (!target) {
      const key = w.path[w.path.length - 1];
      w.diagnostics.push({ severity: 'error', code: 'yaml.unknown-alias', loc: w.src.loc(startOf(node)),
        message: ussdAliasAdvice(node.source, typeof key === 'string' ? key : undefined)
          ?? `alias *${node.source} refers to no anchor defined before it. Define &${node.source} first.` });
      w.notes.reported.add(pointer(w.path));
      return null;
    }
    const anchor = w.anchors.get(target as Node);
    if (anchor) w.notes.aliases.push({ path: [...w.path], target: anchor });
    return convert(target, w);
  }
  const seen = w.memo.get(node);
  if (seen !== undefined) return seen; // an anchor used again by an alias: same value, converted once
  if (node.anchor) w.anchors.set(node, [...w.path]);
  let out: Json;
  if (isScalar(node)) out = scalarValue(node, w);
  else if (isMap(node)) {
    const obj: Record<string, Json> = {};
    w.memo.set(node, obj);
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      if (k && !isScalar(k)) {
        w.diagnostics.push({ severity: 'error', code: 'yaml.complex-key', loc: w.src.loc(startOf(k)),
          message: 'keys must be plain strings, not lists or mappings.' });
        continue;
      }
      const key = k ? String(k.value ?? '') : '';
      w.path.push(key);
      const value = convert(pair.value as Node | null, w);
      defineKey(obj, key, value);
      rememberText(pair.value as Node | null, value, obj, key, w);
      w.path.pop();
    }
    out = obj;
  } else if (isSeq(node)) {
    const arr: Json[] = [];
    w.memo.set(node, arr);
    node.items.forEach((item, i) => {
      w.path.push(i);
      const value = convert(item as Node, w);
      arr.push(value);
      rememberText(item as Node, value, arr, i, w);
      w.path.pop();
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

export function aliasLimitMessage(expanded: number, budget: number): string {
  const what = Number.isFinite(expanded) ? `more than ${budget} nodes` : 'a cycle';
  return `aliases expand to ${what} here (limit: ${MAX_ALIAS_NODES} nodes added by aliases, or the file's own size). Write the values out or use fewer nested aliases.`;
}

/** The document's values as written (undefined, with a located error, when aliases would expand too far); `notes` gets what evaluation needs. */
export function readValues(doc: Document, src: ConfigSource, diagnostics: Diagnostic[], notes: ReadNotes): Json | undefined {
  const overflow = aliasOverflow(doc);
  if (overflow) {
    diagnostics.push({ severity: 'error', code: 'yaml.alias-limit', loc: src.loc(startOf(overflow.alias)),
      message: aliasLimitMessage(overflow.expanded, overflow.budget) });
    return undefined;
  }
  return convert(doc.contents as Node | null, { path: [], doc, src, diagnostics, notes, memo: new Map(), anchors: new Map() });
}
