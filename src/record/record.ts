// The applied-state record (docs/planning.md, "The record"): what menuctl applied that the API
// cannot tell back. Pure: parse, serialise, look up. The file is text, one JSON object per
// line, one line per resource, sorted by scope then address, no timestamps and no secrets,
// so git diffs and merges stay readable and two runs that learn the same facts write the same
// bytes.
//
// What a line holds:
//   action: the live id it was applied to, its step details (kind, expect, description: the
//           API echoes only values) and its world operator ids (the API echoes only names,
//           which are not unique);
//   app:    its live id (the spec has no GET /api/apps), or `"pending": "create"` while a create
//           was sent and its answer has not come.
// Parsers need nothing: the API lists and echoes every parser field.

import { STEP_KINDS } from '../model/types.js';
import { parseAddress } from '../model/address.js';
import { KINDS } from '../model/kinds/index.js';
import type { RecordDocument, RecordedAction, RecordedApp, ScopeRecord, StepDetails } from '../model/types.js';

export type { RecordDocument, RecordedAction, RecordedApp, ScopeRecord };

export const RECORD_FILE = 'menuctl.lock';

/**
 * The scope a record belongs to: one API and one organization, or, for a config with
 * environments, one environment by name (its URL may be overridden with --api-url, yet it is
 * still the same environment's resources). Everything else takes the key as an opaque string.
 */
export function scopeKey(apiUrl: string, organizationId: number | null, environment: string | null = null): string {
  if (environment !== null) return `environment ${environment}`;
  return `${scopeUrl(apiUrl)} org ${organizationId ?? '?'}`;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * One API, one scope: `HTTP://Host:80/`, `http://host/api` and `http://host`
 * are the same API, so the scheme and host are lower-cased, a default port, trailing `/` and a
 * trailing `/api` (the requests' own prefix) are dropped. The rest of the path is kept as written:
 * a gateway may serve two APIs under two paths. Not a URL: the text less its trailing `/`.
 */
export function scopeUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl.trim());
  } catch {
    return apiUrl.replace(/\/+$/, '');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return apiUrl.replace(/\/+$/, '');
  const port = url.port === '' || url.port === DEFAULT_PORT[url.protocol] ? '' : `:${url.port}`;
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api$/i, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.hostname.toLowerCase()}${port}${path}`;
}

/** A key as written by any earlier version, in today's form (`HTTP://H:80/ org 1` -> `http://h org 1`). */
export function normalizeScopeKey(key: string): string {
  const m = /^(\S+) org (\d+|\?)$/.exec(key);
  return m ? `${scopeUrl(m[1]!)} org ${m[2]}` : key;
}

export const emptyScope = (): ScopeRecord => ({ actions: new Map(), apps: new Map() });

const HEADER = [
  '# menuctl applied-state record: what the API cannot tell (docs/planning.md). Commit it beside the config.',
  '# One line per resource, sorted. On a merge conflict keep every line of both sides, one per address',
  '# (for the same address keep either: the next apply corrects it), or run `menuctl apply --resend all`.',
];

export class RecordSyntaxError extends Error {
  constructor(file: string, line: number, what: string) {
    super(`${file}:${line}:1: ${what}`);
    this.name = 'RecordSyntaxError';
  }
}

/** Parses the file's text; every problem names its line and what to do. */
export function parseRecord(text: string, file: string): RecordDocument {
  const doc: RecordDocument = new Map();
  // A file that is not a record at all (`--record` given the wrong path) fails on its first line:
  // say so, rather than how to mend that line.
  const ours = text.replace(/^\uFEFF/, '').startsWith('# menuctl applied-state record');
  let first = true;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const at = i + 1;
    const isFirst = first;
    first = false;
    const notOurs = (what: string) => new RecordSyntaxError(file, at, isFirst && !ours
      ? 'this is not a menuctl record (menuctl writes one that starts with "# menuctl applied-state record"): give --record the path of the record, or leave --record out to use menuctl.lock beside the config'
      : what);
    if (/^(<<<<<<<|=======|>>>>>>>)/.test(line)) {
      throw new RecordSyntaxError(file, at, 'an unresolved merge conflict: keep the lines of both sides (one per address) and delete the markers');
    }
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw notOurs('not a JSON object; restore the line from git, or delete it and run `menuctl apply --resend all`');
    }
    addEntry(doc, entry as Record<string, unknown>, notOurs);
  });
  return doc;
}

function addEntry(doc: RecordDocument, e: Record<string, unknown>, fail: (what: string) => Error): void {
  if (typeof e.scope !== 'string' || typeof e.address !== 'string') throw fail('a line needs "scope" and "address"');
  const address = parseAddress(e.address);
  const recordedIn = address === null ? undefined : KINDS[address.type].recordedIn;
  if (address === null || recordedIn === undefined) throw fail(`${JSON.stringify(e.address)} is not an action or app address`);
  const key = normalizeScopeKey(e.scope);
  let scope = doc.get(key);
  if (!scope) doc.set(key, (scope = emptyScope()));
  const table = scope[recordedIn] as Map<string, RecordedAction | RecordedApp>;
  if (table.has(e.address)) throw fail(`${e.address} appears twice for ${key} (a merge kept both sides): keep one of the two lines`);
  table.set(e.address, LINE[recordedIn](e, fail));
}

type Fail = (what: string) => Error;

/** Each table's line (the record's format is per table: ScopeRecord). */
const LINE: { [T in keyof ScopeRecord]: (e: Record<string, unknown>, fail: Fail) => ScopeRecord[T] extends Map<string, infer V> ? V : never } = {
  actions: readActionLine,
  apps: readAppLine,
};

function readActionLine(e: Record<string, unknown>, fail: Fail): RecordedAction {
  const lost = typeof e.lost === 'string' ? { lost: e.lost } : {};
  const pending = e.pending === 'create' && e.id === null;
  if ((typeof e.id !== 'string' && !pending) || e.steps === undefined || e.operator_ids === undefined) {
    throw fail('an action line needs "id" (or "id": null with "pending": "create"), "steps" and "operator_ids"');
  }
  if (e.steps === 'unknown' && e.operator_ids === 'unknown' && !pending) {
    return { id: e.id as string, steps: [], operator_ids: [], details: 'unknown' };
  }
  if (!Array.isArray(e.steps) || !Array.isArray(e.operator_ids) || !e.steps.every(isStepDetails) || !e.operator_ids.every((o) => Number.isInteger(o))) {
    throw fail('an action line\'s "steps" must be step objects (kind, value or name, expect, description) and "operator_ids" whole numbers (or both "unknown"); restore the line from git, or delete it and run `menuctl import ADDRESS ID`');
  }
  return {
    id: pending ? null : (e.id as string), steps: e.steps as StepDetails[], operator_ids: e.operator_ids as number[],
    ...(pending ? { pending: 'create' as const, ...lost } : {}),
  };
}

function readAppLine(e: Record<string, unknown>, fail: Fail): RecordedApp {
  const lost = typeof e.lost === 'string' ? { lost: e.lost } : {};
  if (e.pending === 'create' && e.id === null) return { id: null, pending: 'create', ...lost };
  if (typeof e.id === 'string') return { id: e.id };
  throw fail('an app line needs "id" (or "id": null with "pending": "create")');
}

const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

/** A step as canonicalStep writes it: a press has its value, a variable or select its name. */
function isStepDetails(v: unknown): v is StepDetails {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const s = v as Record<string, unknown>;
  if (typeof s.kind !== 'string' || !(STEP_KINDS as readonly string[]).includes(s.kind) || typeof s.description !== 'string') return false;
  if (s.kind === 'press' && typeof s.value !== 'string') return false;
  if ((s.kind === 'variable' || s.kind === 'select') && typeof s.name !== 'string') return false;
  return optionalString(s.value) && optionalString(s.name) && (s.expect === null || optionalString(s.expect));
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Each entry's line, kept while the entry object is the same one (the keeper replaces an entry
 * to change it, never edits it in place): apply writes the whole record after every confirmed
 * change, and stringifying every line each time made apply quadratic (10,000 actions: 76 s CPU).
 */
const lineCache = new WeakMap<object, { scope: string; address: string; line: string }>();

function lineOf(scope: string, address: string, entry: object, make: () => object): string {
  const kept = lineCache.get(entry);
  if (kept !== undefined && kept.scope === scope && kept.address === address) return kept.line;
  const line = JSON.stringify(make());
  lineCache.set(entry, { scope, address, line });
  return line;
}

/** The file's text: header, then one line per resource sorted by scope and address. */
export function serializeRecord(doc: RecordDocument): string {
  const lines: string[] = [];
  for (const scope of [...doc.keys()].sort(byCodeUnit)) {
    const s = doc.get(scope)!;
    const entries: [string, string][] = [];
    for (const [address, a] of s.actions) {
      entries.push([address, lineOf(scope, address, a, () => actionLine(scope, address, a))]);
    }
    for (const [address, a] of s.apps) {
      entries.push([address, lineOf(scope, address, a, () => appLine(scope, address, a))]);
    }
    entries.sort(([x], [y]) => byCodeUnit(x, y));
    for (const [, line] of entries) lines.push(line);
  }
  return `${[...HEADER, ...lines].join('\n')}\n`;
}

/**
 * An action's line as the file holds it (and `state show` prints it): details adopted by export
 * or import are `"unknown"`, never the empty lists they are kept as in memory.
 */
export function actionLine(scope: string, address: string, a: RecordedAction): object {
  if (a.details === 'unknown') return { scope, address, id: a.id, operator_ids: 'unknown', steps: 'unknown' };
  if (a.pending) return { scope, address, id: null, pending: a.pending, ...(a.lost ? { lost: a.lost } : {}), operator_ids: a.operator_ids, steps: a.steps };
  return { scope, address, id: a.id, operator_ids: a.operator_ids, steps: a.steps };
}

/** An app's line as the file holds it. */
export function appLine(scope: string, address: string, a: RecordedApp): object {
  return a.pending ? { scope, address, id: null, pending: a.pending, ...(a.lost ? { lost: a.lost } : {}) } : { scope, address, id: a.id };
}

/**
 * The recorded action when it was applied to this live id (a record of another id says
 * nothing), or when its create was in flight: the live action of that name is what it made.
 */
export function recordedAction(scope: ScopeRecord | null | undefined, address: string, liveId: string): RecordedAction | undefined {
  const a = scope?.actions.get(address);
  return a !== undefined && (a.id === liveId || a.pending === 'create') ? a : undefined;
}

/** The app ids the record holds for a scope (apps whose create is in flight have none yet). */
export function recordedAppIds(scope: ScopeRecord | null | undefined): string[] {
  return [...(scope?.apps.values() ?? [])].flatMap((a) => (a.id === null ? [] : [a.id]));
}
