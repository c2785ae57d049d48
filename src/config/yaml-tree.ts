// The precise path: a `yaml` Document -> ConfigTree. Slow on big files (a positioned node per
// scalar), so it runs only for files the fast parser refused; its diagnostics are the reference
// (every duplicate key, unknown aliases, complex keys, tags, multi-document files).

import type { Document, Node, Scalar } from 'yaml';
import { isAlias, isMap, isScalar, isSeq } from './yaml-lib.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { interpolate } from './interpolate.js';
import { ussdAliasAdvice } from './yaml-advice.js';
import { defineKey, MAX_ALIAS_NODES, pointer, type ConfigTree, type Json, type PosNode, type Segment } from './tree.js';

interface Walk {
  path: Segment[];
  doc: Document;
  tree: ConfigTree;
  env: Record<string, string | undefined>;
  diagnostics: Diagnostic[];
  memo: Map<Node, Json>;
}

export const posOf = (node: Node | null | undefined): PosNode =>
  ({ start: node?.range?.[0] ?? 0, end: node?.range?.[1] ?? node?.range?.[0] ?? 0 });

function scalarValue(node: Scalar, w: Walk): Json {
  const v = node.value;
  if (typeof v === 'string') {
    const r = interpolate(v, w.env);
    for (const issue of r.issues) {
      const diagnostic: Diagnostic = { severity: 'error', code: issue.code, message: issue.message, loc: w.tree.scalarIndexLoc(posOf(node), issue.index) };
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
      const key = w.path[w.path.length - 1];
      w.diagnostics.push({ severity: 'error', code: 'yaml.unknown-alias', loc: w.tree.nodeLoc(posOf(node)),
        message: ussdAliasAdvice(node.source, typeof key === 'string' ? key : undefined)
          ?? `alias *${node.source} refers to no anchor defined before it. Define &${node.source} first.` });
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
    const keys: string[] = [];
    const pos: number[] = [];
    w.tree.record(obj, { start: posOf(node).start, keys, pos, size: 0 });
    w.memo.set(node, obj);
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      if (k && !isScalar(k)) {
        w.diagnostics.push({ severity: 'error', code: 'yaml.complex-key', loc: w.tree.nodeLoc(posOf(k)),
          message: 'keys must be plain strings, not lists or mappings.' });
        continue;
      }
      const key = k ? String(k.value ?? '') : '';
      w.path.push(key);
      defineKey(obj, key, convert(pair.value as Node | null, w));
      w.path.pop();
      const value = posOf((pair.value as Node | null) ?? k);
      const kp = k ? posOf(k) : value;
      keys.push(key);
      pos.push(kp.start, kp.end, value.start, value.end);
    }
    out = obj;
  } else if (isSeq(node)) {
    const arr: Json[] = [];
    const pos: number[] = [];
    w.tree.record(arr, { start: posOf(node).start, keys: null, pos, size: 0 });
    w.memo.set(node, arr);
    node.items.forEach((item, i) => {
      w.path.push(i);
      arr.push(convert(item as Node, w));
      w.path.pop();
      const p = posOf((item as Node | null) ?? node);
      pos.push(p.start, p.end);
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

/** Converts the document; returns undefined (with a located error) when aliases would expand too far. */
export function buildTree(doc: Document, tree: ConfigTree, env: Record<string, string | undefined>, diagnostics: Diagnostic[]): Json | undefined {
  const overflow = aliasOverflow(doc);
  if (overflow) {
    diagnostics.push({ severity: 'error', code: 'yaml.alias-limit', loc: tree.nodeLoc(posOf(overflow.alias)),
      message: aliasLimitMessage(overflow.expanded, overflow.budget) });
    return undefined;
  }
  tree.root = convert(doc.contents as Node | null, { path: [], doc, tree, env, diagnostics, memo: new Map() });
  return tree.root;
}
