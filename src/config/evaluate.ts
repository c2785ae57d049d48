// Evaluation: one parsed file's values (./parse.ts, as written) -> its values for one scope, every
// `${VAR}` interpolated (./interpolate.ts). Parsing noted where the strings holding `${` are
// (`sites`), so this visits only those, never the whole tree. Each issue is located from its path
// (ConfigSource.charLoc: a file read on the fast path builds its positioned Document only then)
// and gets the address of the resource it is in, named by the evaluated values.
//
// A config with environments evaluates the same parsed values once per environment: `shared`
// then leaves them untouched and copies only the containers on the path to a changed string
// (their numbers as written carried over); everything else is shared between the environments.
// With one evaluation (no environments, or --env), the values are changed in place.

import type { Diagnostic } from '../model/diagnostic.js';
import { addressOfPath } from './addresses.js';
import { interpolate, type VariableScope } from './interpolate.js';
import type { ParsedFile } from './parse.js';
import { defineKey, pointer, type ConfigSource, type Json, type Segment } from './source.js';

type Obj = Record<string, unknown>;

export interface Evaluated {
  src: ConfigSource;
  /** The values for this scope; null when the file has no usable mapping (its parse reported why). */
  root: Obj | null;
  /** JSON pointers of values already reported (a failed `${VAR}`, an unknown alias): their schema errors would be noise. */
  reported: Set<string>;
}

export interface EvaluateOptions {
  /** Other evaluations will read the same parsed values: copy on write instead of changing them. */
  shared: boolean;
  /** Only the values under this top-level key (and what their aliases repeat) are needed. */
  only?: string;
}

/** Interpolates one file's `${VAR}` sites with `scope`; issues go to `diagnostics`, located and addressed. */
export function evaluate(parsed: ParsedFile, scope: VariableScope, diagnostics: Diagnostic[], options: EvaluateOptions): Evaluated {
  const { src } = parsed;
  const reported = new Set(parsed.reported);
  if (parsed.values === undefined) return { src, root: null, reported };
  const tree = new Tree(parsed.values, src, options.shared);
  const needed = options.only === undefined ? undefined : neededPaths(parsed, options.only);
  const issues: { diagnostic: Diagnostic; path: Segment[] }[] = [];
  for (const path of parsed.sites) {
    if (needed && !needed.some((p) => isPrefix(p, path))) continue;
    const written = valueAt(parsed.values, path) as string;
    const r = interpolate(written, scope);
    for (const issue of r.issues) {
      const diagnostic: Diagnostic = { severity: issue.severity ?? 'error', code: issue.code, message: issue.message, loc: src.charLoc(path, issue.index) };
      diagnostics.push(diagnostic);
      issues.push({ diagnostic, path });
      // A value with an error is not checked further; a default that applied is checked as any value.
      if (issue.severity === undefined) reported.add(pointer(path));
    }
    if (r.value !== written) tree.set(path, r.value);
  }
  // An alias takes its anchor's value as evaluated (the anchor is always written, and so
  // evaluated, first). A mapping or list is then one object in both places, as parsed.
  for (const { path, target } of parsed.aliases) {
    if (needed && !needed.some((p) => isPrefix(p, path))) continue;
    const value = valueAt(tree.root, target);
    if (valueAt(tree.root, path) !== value) tree.set(path, value);
  }
  for (const { diagnostic, path } of issues) {
    const address = addressOfPath(tree.root, path);
    if (address) diagnostic.address = address;
  }
  const root = tree.root;
  return { src, root: root !== null && typeof root === 'object' && !Array.isArray(root) ? root as Obj : null, reported };
}

/** The values being evaluated: the parsed ones, changed in place or copied on write. */
class Tree {
  /** Containers this evaluation made (copy on write): written into directly. */
  private readonly own = new Set<object>();

  constructor(public root: Json, private readonly src: ConfigSource, private readonly shared: boolean) {}

  set(path: readonly Segment[], value: unknown): void {
    if (path.length === 0) {
      this.root = value as Json;
      return;
    }
    this.root = this.ownCopy(this.root as object) as Json;
    let container = this.root as unknown as Obj;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      const child = this.ownCopy(container[key] as object);
      if (child !== container[key]) put(container, key, child);
      container = child as Obj;
    }
    put(container, path[path.length - 1]!, value);
  }

  /** The container itself when it may be written (in place, or already copied), else a copy. */
  private ownCopy(container: object): object {
    if (!this.shared || this.own.has(container)) return container;
    // A spread defines each key as its own property (a `__proto__` key stays a plain key).
    const copy = Array.isArray(container) ? container.slice() : { ...container };
    this.src.carryNumbers(container, copy);
    this.own.add(copy);
    return copy;
  }
}

function put(container: Obj, key: Segment, value: unknown): void {
  if (Array.isArray(container)) container[key as number] = value;
  else defineKey(container, String(key), value);
}

function valueAt(root: Json, path: readonly Segment[]): unknown {
  let cur: unknown = root;
  for (const seg of path) cur = (cur as Obj)[seg];
  return cur;
}

const isPrefix = (prefix: readonly Segment[], path: readonly Segment[]): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i]);

/**
 * The subtrees needed for the values under `key`: it, and the anchors its aliases repeat (and
 * theirs: an alias names an anchor written before it, so one pass backwards finds them all).
 */
function neededPaths(parsed: ParsedFile, key: string): Segment[][] {
  const needed: Segment[][] = [[key]];
  for (let i = parsed.aliases.length - 1; i >= 0; i--) {
    const { path, target } = parsed.aliases[i]!;
    if (needed.some((p) => isPrefix(p, path))) needed.push(target);
  }
  return needed;
}
