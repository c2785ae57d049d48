// The fast path: js-yaml (YAML 1.2 core schema) -> ConfigTree, positions taken from its parse
// events. js-yaml builds the values 15x faster than `yaml` builds a positioned Document; its
// listener reports each composed node ('open' at the position where composing starts, 'close' with
// the result), keys and values in source order, so a stack of frames rebuilds the node tree.
//
// This path only has to be exact for files that are valid YAML. Whenever anything is unusual (js-yaml
// throws, a tag, a directive, a key without a value, a complex or null key, a scalar that the two
// libraries resolve differently, an alias over budget or to an interpolated string) it gives up with
// `Refused` and the caller re-parses that one file with `yaml` (./yaml-tree.ts), whose diagnostics
// the corpus pins. Every mapping and sequence is checked against its events, so a mismatch between
// what js-yaml built and what the events say is a refusal, never a wrong location.

import { CORE_SCHEMA, load, type State } from 'js-yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import { interpolate, type InterpolationIssue } from './interpolate.js';
import { ConfigTree, defineKey, MAX_ALIAS_NODES, pointer, type Json, type PosNode, type Segment } from './tree.js';

export class Refused extends Error {}

interface Frame extends PosNode {
  open: number;
  result: unknown;
  kind: string | null;
  kids: Frame[] | null;
  /** Nodes this stands for once aliases are expanded (keys count 1). */
  size: number;
  alias: boolean;
}

interface Issue { issue: InterpolationIssue; node: Frame; container: object; seg: Segment }

/** What `yaml`'s core schema reads as null, bool, int or float: a plain scalar matching this is not a string. */
const CORE_NON_STRING = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
/** First characters of every CORE_NON_STRING match: most strings skip the regex. */
const MAYBE_NON_STRING = new Set([...'~nNtTfF.+-0123456789'].map((c) => c.charCodeAt(0)));

const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d, HASH = 0x23, AMP = 0x26, BANG = 0x21, STAR = 0x2a;
const isFlowEnd = (c: number) => c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
const isBlank = (c: number) => c === SPACE || c === TAB || c === LF || c === CR;

class Builder {
  private readonly stack: Frame[] = [];
  readonly roots: Frame[] = [];
  readonly issues: Issue[] = [];
  /** Nodes written in the file, not counting keys; the alias budget is at least this. */
  written = 0;
  aliasExtra = 0;

  constructor(private readonly text: string, private readonly tree: ConfigTree, private readonly env: Record<string, string | undefined>) {}

  readonly listener = (event: string, state: State): void => {
    if (event === 'open') {
      this.stack.push({ open: state.position, start: 0, end: 0, result: undefined, kind: null, kids: null, size: 1, alias: false });
      return;
    }
    const f = this.stack.pop()!;
    f.end = state.position;
    f.result = state.result;
    f.kind = (state as { kind: string | null }).kind;
    const done = this.finish(f);
    const parent = this.stack[this.stack.length - 1];
    if (parent) (parent.kids ??= []).push(done);
    else this.roots.push(done);
  };

  /** First character of a node's content: past blanks, comments and anchors (a tag is refused). */
  private contentStart(from: number, crossLines: boolean): number {
    const t = this.text;
    let p = from;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === SPACE || c === TAB || (crossLines && (c === LF || c === CR))) p++;
      else if (c === HASH && crossLines) { const nl = t.indexOf('\n', p); p = nl < 0 ? t.length : nl; }
      else if (c === AMP) { do p++; while (p < t.length && !isBlank(t.charCodeAt(p)) && !isFlowEnd(t.charCodeAt(p))); }
      else if (c === BANG) throw new Refused('tag');
      else return p;
    }
  }

  private finish(f: Frame): Frame {
    const kids = f.kids;
    // readBlockMapping first composes a would-be key; with no `:` after it, that node *is* the value
    // (`- pin`, a scalar on the line below its key): the outer event only wraps it.
    if (kids?.length === 1 && kids[0]!.result === f.result && !(kids[0]!.alias && (f.kind === 'mapping' || f.kind === 'sequence'))) {
      return kids[0]!;
    }
    const empty = f.kind === null && f.result === null;
    // An empty value sits right after `key:` and its spaces, where `yaml` puts it; the rest at their content.
    f.start = this.contentStart(f.open, !empty);
    if (f.kind === 'mapping') this.finishMap(f);
    else if (f.kind === 'sequence') this.finishSeq(f);
    else {
      if (kids) this.written -= kids.length; // a would-be key that turned out to be nothing (before `|`)
      f.kids = null;
      f.alias = f.kind === null && this.text.charCodeAt(f.start) === STAR;
      if (f.alias) this.countAlias(f);
      else if (f.kind === 'scalar') this.checkPlain(f);
    }
    this.written++;
    return f;
  }

  private countAlias(f: Frame): void {
    const r = f.result;
    // An anchor's collection is registered when it closes; an alias reaching it earlier is inside it: a cycle.
    f.size = r !== null && typeof r === 'object' ? (this.tree.entry(r)?.size ?? Infinity) : 1;
    this.aliasExtra += f.size;
    if (this.aliasExtra > MAX_ALIAS_NODES && this.aliasExtra > this.text.length) throw new Refused('alias budget');
  }

  /** Plain scalars must resolve as `yaml`'s core schema would (js-yaml reads `0b1`, `-0x1` as ints, `-.5` as a string). */
  private checkPlain(f: Frame): void {
    const c = this.text.charCodeAt(f.start);
    if (c === 0x27 || c === 0x22 || c === 0x7c || c === 0x3e) return; // quoted or block: always a string
    const r = f.result;
    if (typeof r === 'string') {
      if (MAYBE_NON_STRING.has(r.charCodeAt(0)) && CORE_NON_STRING.test(r)) throw new Refused('scalar type');
      return;
    }
    const source = this.tree.sourceOf(f);
    // NaN fails the identity checks of its container; `-0` is 0 to js-yaml and -0 to `yaml`.
    if (!CORE_NON_STRING.test(source) || Number.isNaN(r) || (r === 0 && source.startsWith('-'))) throw new Refused('scalar type');
  }

  private finishMap(f: Frame): void {
    const obj = f.result as Record<string, unknown>;
    const kids = f.kids ?? [];
    const n = kids.length >> 1;
    if (kids.length % 2 !== 0 || n !== Object.keys(obj).length) throw new Refused('mapping shape');
    const keys = new Array<string>(n);
    let size = 1;
    for (let i = 0; i < n; i++) {
      const k = kids[2 * i]!.result;
      const v = kids[2 * i + 1]!;
      // `yaml` would name a null key '' (js-yaml 'null'); a list or map as key is reported there.
      if (k === null || typeof k === 'object') throw new Refused('key');
      const key = String(k);
      if (!Object.prototype.hasOwnProperty.call(obj, key) || obj[key] !== v.result) throw new Refused('mapping value');
      keys[i] = key;
      size += v.size + 1;
      this.written--; // keys are not counted as written nodes
      if (typeof v.result === 'string') this.interpolate(obj, key, v);
    }
    f.size = size;
    this.tree.record(obj, { node: f, keys, kids, size });
  }

  private finishSeq(f: Frame): void {
    const arr = f.result as unknown[];
    const kids = f.kids ?? [];
    if (kids.length !== arr.length) throw new Refused('sequence shape'); // e.g. an empty `- ` item
    let size = 1;
    for (let i = 0; i < kids.length; i++) {
      const v = kids[i]!;
      if (arr[i] !== v.result) throw new Refused('sequence item');
      size += v.size;
      if (typeof v.result === 'string') this.interpolate(arr, i, v);
    }
    f.size = size;
    this.tree.record(arr, { node: f, keys: null, kids, size });
  }

  private interpolate(container: Record<string, unknown> | unknown[], seg: Segment, v: Frame): void {
    const s = v.result as string;
    if (!s.includes('${')) return;
    // The anchor's copy was interpolated (and reported) where it was written; `yaml`'s path handles the reuse.
    if (v.alias) throw new Refused('alias to an interpolated string');
    const r = interpolate(s, this.env);
    for (const issue of r.issues) this.issues.push({ issue, node: v, container, seg });
    if (Array.isArray(container)) container[seg as number] = r.value;
    else defineKey(container, seg as string, r.value);
  }
}

/** Paths from the root to each container that has interpolation issues (only walked when there are some). */
function pathsTo(root: Json, wanted: Set<object>): Map<object, Segment[]> {
  const found = new Map<object, Segment[]>();
  const seen = new Set<object>();
  const walk = (v: Json, path: Segment[]): void => {
    if (!v || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (wanted.has(v)) found.set(v, [...path]);
    const entries: [Segment, Json][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) { path.push(k); walk(x, path); path.pop(); }
  };
  walk(root, []);
  return found;
}

export interface FastResult { tree: ConfigTree; root: Record<string, Json> }

/** Parses one file's text; throws Refused when the precise path must handle it. */
export function parseFast(file: string, text: string, env: Record<string, string | undefined>, diagnostics: Diagnostic[]): FastResult {
  // A %YAML 1.1 directive changes what `yes` means to `yaml`; leave directives to it.
  if (text.startsWith('%') || text.includes('\n%')) throw new Refused('directive');
  const tree = new ConfigTree(file, text);
  const b = new Builder(text, tree, env);
  try {
    load(text, { schema: CORE_SCHEMA, listener: b.listener });
  } catch (e) {
    throw e instanceof Refused ? e : new Refused((e as Error).message);
  }
  const root = b.roots[0];
  if (b.roots.length !== 1 || !root || root.kind !== 'mapping') throw new Refused('root');
  if (b.aliasExtra > Math.max(MAX_ALIAS_NODES, b.written)) throw new Refused('alias budget');
  tree.root = root.result as Json;
  if (b.issues.length > 0) {
    const paths = pathsTo(tree.root, new Set(b.issues.map((i) => i.container)));
    for (const { issue, node, container, seg } of b.issues) {
      const path = [...(paths.get(container) ?? []), seg];
      const diagnostic: Diagnostic = { severity: 'error', code: issue.code, message: issue.message, loc: tree.scalarIndexLoc(node, issue.index) };
      diagnostics.push(diagnostic);
      tree.pending.push({ diagnostic, path });
      tree.reported.add(pointer(path));
    }
  }
  return { tree, root: tree.root as Record<string, Json> };
}
