// The fast path: js-yaml (YAML 1.2 core schema) -> ConfigTree, positions taken from its parse
// events. js-yaml builds the values ~15x faster than `yaml` builds a positioned Document; its
// listener reports each composed node ('open' at the position where composing starts, 'close' with
// the result), keys and values in source order, so a stack of frames rebuilds the node tree.
//
// This path only has to be exact for files that are valid YAML. Whenever anything is unusual
// (js-yaml throws, a tag or directive, a key without value, a complex, alias or null key, a scalar
// the two libraries resolve differently, continuation lines `yaml` would reject, aliases over budget
// or to an interpolated string: docs/config.md "How files are read") it gives up with `Refused`
// and the caller re-parses that one file with `yaml` (./yaml-tree.ts), whose diagnostics the corpus
// pins. Every mapping and sequence is checked against its events, so a mismatch between what
// js-yaml built and what the events say is a refusal, never a wrong location.

import { CORE_SCHEMA, load, type State } from 'js-yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import { interpolate, type InterpolationIssue } from './interpolate.js';
import { ConfigTree, defineKey, MAX_ALIAS_NODES, pointer, sourceText, type Json, type Segment } from './tree.js';

export class Refused extends Error {}

/**
 * One node being composed. Frames are pooled by depth and their children kept in parallel arrays,
 * so parsing allocates per mapping and sequence, not per scalar.
 */
class Frame {
  open = 0;
  /** Children finished so far, and for each: value, [start, end], expanded size, whether an alias. */
  n = 0;
  results: unknown[] = [];
  pos: number[] = [];
  sizes: number[] = [];
  aliases: boolean[] = [];
}

/** A finished node, as handed to its parent. */
interface Done { result: unknown; start: number; end: number; size: number; alias: boolean }

interface Issue { issue: InterpolationIssue; start: number; end: number; container: object; seg: Segment }

/** What `yaml`'s core schema reads as null, bool, int or float: a plain scalar matching this is not a string. */
const CORE_NON_STRING = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
/** First characters of every CORE_NON_STRING match: most strings skip the regex. */
const MAYBE_NON_STRING = new Set([...'~nNtTfF.+-0123456789'].map((c) => c.charCodeAt(0)));

const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d, HASH = 0x23, AMP = 0x26, BANG = 0x21, STAR = 0x2a;
const isFlowEnd = (c: number) => c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
const isBlank = (c: number) => c === SPACE || c === TAB || c === LF || c === CR;

class Builder {
  private readonly pool: Frame[] = [];
  private depth = 0;
  private readonly out: Done = { result: null, start: 0, end: 0, size: 1, alias: false };
  root: { result: unknown; kind: string | null } | null = null;
  roots = 0;
  readonly issues: Issue[] = [];
  /** Nodes written in the file, not counting keys; the alias budget is at least this. */
  written = 0;
  aliasExtra = 0;

  constructor(private readonly text: string, private readonly tree: ConfigTree, private readonly env: Record<string, string | undefined>) {}

  readonly listener = (event: string, state: State): void => {
    if (event === 'open') {
      const f = (this.pool[this.depth++] ??= new Frame());
      f.open = state.position;
      f.n = 0;
      return;
    }
    const f = this.pool[--this.depth]!;
    const kind = (state as { kind: string | null }).kind;
    const d = this.finish(f, state.result, kind, state.position);
    if (this.depth === 0) {
      this.roots++;
      this.root = { result: d.result, kind };
      return;
    }
    const p = this.pool[this.depth - 1]!;
    const i = p.n++;
    p.results[i] = d.result;
    p.pos[2 * i] = d.start;
    p.pos[2 * i + 1] = d.end;
    p.sizes[i] = d.size;
    p.aliases[i] = d.alias;
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

  private finish(f: Frame, result: unknown, kind: string | null, end: number): Done {
    const out = this.out;
    out.result = result;
    // readBlockMapping first composes a would-be key; with no `:` after it, that node *is* the value
    // (`- pin`, a scalar on the line below its key): the outer event only wraps it.
    if (f.n === 1 && f.results[0] === result && !(f.aliases[0] && (kind === 'mapping' || kind === 'sequence'))) {
      out.start = f.pos[0]!;
      out.end = f.pos[1]!;
      out.size = f.sizes[0]!;
      out.alias = f.aliases[0]!;
      return out;
    }
    const empty = kind === null && result === null;
    // An empty value sits right after `key:` and its spaces, where `yaml` puts it; the rest at their content.
    const start = this.contentStart(f.open, !empty);
    const c0 = this.text.charCodeAt(start);
    if (kind === 'scalar' ? c0 !== 0x7c && c0 !== 0x3e : c0 === 0x5b || c0 === 0x7b) this.checkContinuation(start, end);
    out.start = start;
    out.end = end;
    out.alias = false;
    if (kind === 'mapping') out.size = this.finishMap(f, result as Record<string, unknown>, start);
    else if (kind === 'sequence') out.size = this.finishSeq(f, result as unknown[], start);
    else {
      this.written -= f.n; // a would-be key that turned out to be nothing (before `|`)
      out.alias = kind === null && this.text.charCodeAt(start) === STAR;
      out.size = out.alias ? this.countAlias(result) : 1;
      if (!out.alias && kind === 'scalar') this.checkPlain(result, start, end);
    }
    this.written++;
    return out;
  }

  /**
   * `yaml` wants every continuation line of a multi-line quoted or plain scalar or flow collection
   * (not block scalars: they have their own rules, on which both libraries agree)
   * indented past its parent (a closing bracket may sit at the parent's column); js-yaml is laxer.
   * The parent's column is taken as the start line's first content after `- ` markers: stricter
   * than `yaml` in a few compact cases, which only sends those files to the precise path.
   */
  private checkContinuation(start: number, end: number): void {
    const t = this.text;
    let nl = t.indexOf('\n', start);
    if (nl < 0 || nl >= end) return;
    let p = t.lastIndexOf('\n', start - 1) + 1;
    const lineStart = p;
    while (t.charCodeAt(p) === SPACE || (t.charCodeAt(p) === 0x2d && t.charCodeAt(p + 1) === SPACE)) p++;
    const base = p - lineStart;
    while (nl >= 0 && nl < end) {
      let q = nl + 1;
      while (t.charCodeAt(q) === SPACE) q++;
      const c = t.charCodeAt(q);
      const closing = c === 0x5d || c === 0x7d;
      if (q < end && c !== LF && c !== CR && (closing ? q - nl - 1 < base : q - nl - 1 <= base)) throw new Refused('continuation indent');
      nl = t.indexOf('\n', q);
    }
  }

  private countAlias(r: unknown): number {
    // An anchor's collection is registered when it closes; an alias reaching it earlier is inside it: a cycle.
    const size = r !== null && typeof r === 'object' ? (this.tree.entry(r)?.size ?? Infinity) : 1;
    this.aliasExtra += size;
    if (this.aliasExtra > MAX_ALIAS_NODES && this.aliasExtra > this.text.length) throw new Refused('alias budget');
    return size;
  }

  /** Plain scalars must resolve as `yaml`'s core schema would (js-yaml reads `0b1`, `-0x1` as ints, `-.5` as a string). */
  private checkPlain(r: unknown, start: number, end: number): void {
    const c = this.text.charCodeAt(start);
    if (c === 0x27 || c === 0x22 || c === 0x7c || c === 0x3e) return; // quoted or block: always a string
    if (typeof r === 'string') {
      if (MAYBE_NON_STRING.has(r.charCodeAt(0)) && CORE_NON_STRING.test(r)) throw new Refused('scalar type');
      return;
    }
    const source = sourceText(this.text, start, end);
    // NaN fails the identity checks of its container; `-0` is 0 to js-yaml and -0 to `yaml`.
    if (!CORE_NON_STRING.test(source) || Number.isNaN(r) || (r === 0 && source.startsWith('-'))) throw new Refused('scalar type');
  }

  private finishMap(f: Frame, obj: Record<string, unknown>, start: number): number {
    const n = f.n >> 1;
    // Object.keys lists keys in insertion order (integer-like keys first): reused as the side
    // table's key list when it matches the events, copied in event order when it does not.
    const keys = Object.keys(obj);
    if (f.n % 2 !== 0 || n !== keys.length) throw new Refused('mapping shape');
    let ordered: string[] | null = null;
    let size = 1;
    for (let i = 0; i < n; i++) {
      const k = f.results[2 * i];
      const v = f.results[2 * i + 1];
      // `yaml` would name a null key '' (js-yaml 'null'); a list, map or alias as key is reported there,
      // and so is an implicit key over 1024 characters.
      if (k === null || typeof k === 'object' || f.aliases[2 * i] || f.pos[4 * i + 1]! - f.pos[4 * i]! > 1000) throw new Refused('key');
      const key = String(k);
      if (!Object.prototype.hasOwnProperty.call(obj, key) || obj[key] !== v) throw new Refused('mapping value');
      if (ordered) ordered.push(key);
      else if (keys[i] !== key) (ordered = keys.slice(0, i)).push(key);
      size += f.sizes[2 * i + 1]! + 1;
      if (typeof v === 'string') this.interpolate(f, 2 * i + 1, obj, key);
    }
    this.written -= n; // keys are not counted as written nodes
    this.tree.record(obj, { start, keys: ordered ?? keys, pos: f.pos.slice(0, 2 * f.n), size });
    return size;
  }

  private finishSeq(f: Frame, arr: unknown[], start: number): number {
    if (f.n !== arr.length) throw new Refused('sequence shape'); // e.g. an empty `- ` item
    let size = 1;
    for (let i = 0; i < f.n; i++) {
      const v = f.results[i];
      if (arr[i] !== v) throw new Refused('sequence item');
      size += f.sizes[i]!;
      if (typeof v === 'string') this.interpolate(f, i, arr, i);
    }
    this.tree.record(arr, { start, keys: null, pos: f.pos.slice(0, 2 * f.n), size });
    return size;
  }

  private interpolate(f: Frame, kid: number, container: Record<string, unknown> | unknown[], seg: Segment): void {
    const s = f.results[kid] as string;
    if (!s.includes('${')) return;
    // The anchor's copy was interpolated (and reported) where it was written; `yaml`'s path handles the reuse.
    if (f.aliases[kid]) throw new Refused('alias to an interpolated string');
    const r = interpolate(s, this.env);
    for (const issue of r.issues) this.issues.push({ issue, start: f.pos[2 * kid]!, end: f.pos[2 * kid + 1]!, container, seg });
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
  // A lone CR is no line break to `yaml`; content after `---` on its line is an error there.
  if (text.includes('\r') && /\r(?!\n)/.test(text)) throw new Refused('CR line break');
  if (/^---[ \t]+[^\s#]/m.test(text)) throw new Refused('content after ---');
  const tree = new ConfigTree(file, text);
  const b = new Builder(text, tree, env);
  try {
    load(text, { schema: CORE_SCHEMA, listener: b.listener });
  } catch (e) {
    throw e instanceof Refused ? e : new Refused((e as Error).message);
  }
  const root = b.root;
  if (b.roots !== 1 || !root || root.kind !== 'mapping') throw new Refused('root');
  if (b.aliasExtra > Math.max(MAX_ALIAS_NODES, b.written)) throw new Refused('alias budget');
  tree.root = root.result as Json;
  if (b.issues.length > 0) {
    const paths = pathsTo(tree.root, new Set(b.issues.map((i) => i.container)));
    for (const { issue, start, end, container, seg } of b.issues) {
      const path = [...(paths.get(container) ?? []), seg];
      const diagnostic: Diagnostic = { severity: 'error', code: issue.code, message: issue.message, loc: tree.scalarIndexLoc({ start, end }, issue.index) };
      diagnostics.push(diagnostic);
      tree.pending.push({ diagnostic, path });
      tree.reported.add(pointer(path));
    }
  }
  return { tree, root: tree.root as Record<string, Json> };
}
