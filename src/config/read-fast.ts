// The fast path: js-yaml reads the values of an ordinary file, as written (a `${VAR}` is left for
// ./evaluate.ts), with plain scalars resolved by `yaml`'s own core-schema tags, and no
// positions at all (./source.ts finds those later, for findings only). js-yaml builds values ~10x
// faster than `yaml` builds a positioned Document.
//
// Anything js-yaml might read differently from `yaml` is refused (`Refused`) and the caller reads
// that file with `yaml` (./read-precise.ts), whose diagnostics are the reference: invalid YAML
// (js-yaml throws: duplicate keys, bad indentation...), directives, tags, anchors and aliases (and
// so alias bombs), lone CRs, content after `---`, quoted or flow values over several lines inside
// a block collection (a flow root is fine: FLOW_ROOT), and a key `yaml` would name otherwise
// (null) or refuse (over 1,000 characters). A `${VAR}` problem is no reason to refuse: evaluation
// reports it, located from its path like any other finding.

import { FAILSAFE_SCHEMA, load, Type, type Schema } from 'js-yaml';
import type { ScalarTag } from 'yaml';
import type { PackedText } from '../text/packed-text.js';
import { ownCopy, StringPool } from '../text/string-pool.js';
import { ConfigSource, defineKey, ItemSpans, type Json, type Segment } from './source.js';
import { yamlLib } from './yaml-lib.js';

export class Refused extends Error {}

/** A number together with its text, so `press: 01` can be kept as written. */
class Written {
  constructor(readonly value: number, readonly text: string) {}
  /** js-yaml names a mapping key String(key): the same name `yaml` gives a number key. */
  toString(): string { return String(this.value); }
  /** js-yaml names any other '[object Object]' key that way without calling toString. */
  get [Symbol.toStringTag](): string { return 'Written'; }
}

/**
 * js-yaml with `yaml`'s core schema for plain scalars: `yaml`'s own tags (null, bool, the three
 * int forms, the three float forms), tried in its order, as its composer does (`schema.tags.find`
 * of a default tag whose test matches), so a plain scalar reads here exactly as `yaml` reads it.
 * js-yaml's own CORE_SCHEMA differs (it reads 0b1, 1_000 and -0x1 as ints, -.5 as a string, -0
 * as 0). One js-yaml type stands for all the tags: js-yaml keeps one implicit type per tag name,
 * so int's three forms would replace each other. Built on the first read: it loads `yaml`.
 */
function fastSchema(): Schema {
  if (schema) return schema;
  const lib = yamlLib();
  const tags = new lib.Schema({ schema: 'core' }).tags.filter((t): t is ScalarTag => !('collection' in t && t.collection) && t.default === true && t.test instanceof RegExp);
  const find = (s: string): ScalarTag | undefined => tags.find((t) => t.test!.test(s));
  // Most plain scalars are strings: one pass of the tests joined (when none has flags) tells them.
  const any = tags.every((t) => t.test!.flags === '') ? new RegExp(tags.map((t) => `(?:${t.test!.source})`).join('|')) : undefined;
  const refuse = (message: string): never => { throw new Refused(message); };
  const core = new Type('tag:yaml.org,2002:core', {
    kind: 'scalar',
    resolve: (s: string) => (any ? any.test(s) : find(s) !== undefined),
    construct: (s: string) => {
      const out = find(s)!.resolve(s, refuse, {});
      const value = lib.isScalar(out) ? out.value : out;
      return typeof value === 'number' ? new Written(value, s) : value;
    },
  });
  schema = FAILSAFE_SCHEMA.extend({ implicit: [core] });
  return schema;
}

let schema: Schema | undefined;

/** Text that only the precise path reads exactly (see the header). */
const UNUSUAL = [
  /^%/m, // a directive (%YAML 1.1 changes what `yes` means)
  /\r(?!\n)/, // a lone CR is no line break to `yaml`
  /^---[ \t]+[^\s#]/m, // content after `---` on its line
  /(?:^|[\s[{,])[!&*][^\s,[\]{}]/, // a tag, an anchor or an alias (a false alarm costs only time)
  /(?:^|[\s[{,])\?(?:\s|$)/m, // an explicit key
];

/** Keys `yaml` names otherwise than js-yaml (a null key is '' there) or refuses (implicit keys over 1024 characters). */
const ODD_KEY = /^(?:null|Null|NULL|~|)$/;

class Walk {
  /** Where the walk is: the path of the value being read. */
  private readonly path: Segment[] = [];
  /** Paths of the strings holding `${`, for evaluation. */
  readonly sites: Segment[][] = [];
  /** One copy of each repeated value (statuses, categories, shared regexes) for the whole file. */
  private readonly strings = new StringPool();

  constructor(private readonly src: ConfigSource) {}

  /** Unwraps numbers (keeping their text where it differs), notes strings to interpolate, checks keys. */
  value(v: unknown, container: object, key: string | number): Json {
    if (typeof v === 'string') {
      if (v.includes('${')) this.sites.push([...this.path]);
      return this.strings.get(v, ownCopy);
    }
    if (v instanceof Written) {
      if (v.text !== String(v.value)) this.src.rememberNumber(container, key, v.text);
      return v.value;
    }
    const path = this.path;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        v[i] = this.value(v[i], v, i);
        path.pop();
      }
      return v as Json[];
    }
    if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        if (k.length > 1000 || ODD_KEY.test(k)) throw new Refused('key');
        const x = obj[k];
        path.push(k);
        const out = this.value(x, obj, k);
        path.pop();
        // A string is always put back: its own copy is === to the slice it replaces.
        if (out !== x || typeof x === 'string') defineKey(obj, k, out);
      }
      return obj as Json;
    }
    return v as Json;
  }
}


const SPACE = 0x20, TAB = 0x09, HASH = 0x23, DQ = 0x22, SQ = 0x27, COLON = 0x3a, DASH = 0x2d, QMARK = 0x3f, COMMA = 0x2c;
const OPEN = (c: number) => c === 0x5b || c === 0x7b;
const CLOSE = (c: number) => c === 0x5d || c === 0x7d;
const blank = (c: number) => c === SPACE || c === TAB || Number.isNaN(c);

/** End of the quoted scalar opening at `i` on this line (just past the closing quote), or -1. */
function closingQuote(line: string, i: number): number {
  const q = line.charCodeAt(i);
  for (let j = i + 1; j < line.length; j++) {
    const c = line.charCodeAt(j);
    if (q === DQ && c === 0x5c) j++;
    else if (c === q) {
      if (q === SQ && line.charCodeAt(j + 1) === SQ) j++;
      else return j + 1;
    }
  }
  return -1;
}

/**
 * Whether a quoted scalar or a flow collection runs onto another line. js-yaml accepts
 * continuation lines that `yaml` rejects as under-indented, so such files take the precise path.
 * Quotes and brackets count only where a value starts (after `: `, `- `, `[`, `{`, `,`, or at the
 * start of a line), as in YAML; a false alarm (a block scalar's text) costs only time.
 */
function spansLines(text: string): boolean {
  for (const line of text.split('\n')) {
    if (!/["'[{]/.test(line)) continue;
    let depth = 0;
    let start = true;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === SPACE || c === TAB) continue;
      if (c === HASH && (i === 0 || blank(line.charCodeAt(i - 1)))) break;
      if ((c === DQ || c === SQ) && start) {
        const end = closingQuote(line, i);
        if (end < 0) return true;
        i = end - 1;
        start = false;
      } else if (OPEN(c) && (start || depth > 0)) {
        depth++;
        start = true;
      } else if (CLOSE(c) && depth > 0) {
        depth--;
        start = false;
      } else if (c === COMMA && depth > 0) start = true;
      else if ((c === COLON || ((c === DASH || c === QMARK) && start)) && blank(line.charCodeAt(i + 1))) start = true;
      else start = false;
    }
    if (depth > 0) return true;
  }
  return false;
}

/**
 * A document that is one flow mapping from its first line (JSON, and YAML written like it, as
 * generated configs are): no block collection holds its lines, so no indentation applies to them
 * and a value over several lines reads the same to both libraries. Only at column 0: an indented
 * root leaves the rule to the precise path.
 */
const FLOW_ROOT = /^(?:[ \t]*(?:#[^\n]*)?\n)*\{/;

export interface FastRead {
  src: ConfigSource;
  /** The values as written. */
  root: Record<string, Json>;
  /** Paths of the strings that hold `${`, in the order read. */
  sites: Segment[][];
}

/** Reads one file's values as written; throws Refused when the precise path must read it. */
export function readFast(file: string, text: string, holder?: PackedText): FastRead {
  if (UNUSUAL.some((re) => re.test(text))) throw new Refused('unusual text');
  if (!FLOW_ROOT.test(text) && spansLines(text)) throw new Refused('multi-line quoted or flow value');
  let value: unknown;
  // A big file's items are located one at a time (source.ts findInItem): where each starts and
  // ends is noted during this read, which costs next to nothing.
  const spans = ItemSpans.recorder(text);
  try {
    // Duplicate keys and several documents make js-yaml throw (`json: false` is the default).
    value = load(text, { schema: fastSchema(), listener: spans?.listener as never });
  } catch (e) {
    throw new Refused((e as Error).message);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Refused('root');
  const src = new ConfigSource(file, holder ?? text);
  if (spans) src.recordItemSpans(spans.result());
  const walk = new Walk(src);
  const root = walk.value(value, { root: value }, 'root') as Record<string, Json>;
  for (const [key, v] of Object.entries(root)) if (Array.isArray(v)) src.listLengths.set(key, v.length);
  return { src, root, sites: walk.sites };
}
