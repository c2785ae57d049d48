// How a field's values are shown to a reader, shared by the plan and drift renderers (text and
// markdown). A change is turned into "views" here; the format-specific files only lay them out.
// Short scalars read best on one line (`before -> after`); lists (steps, operators), multi-line
// values and anything too wide for the terminal read best as a +/- block, diffed item by item
// with the `diff` package so a one-step change in a ten-step menu shows as one line.

import { diffArrays } from 'diff';
import { inert } from '../text/inert.js';

export type Mark = '+' | '-' | ' ';

export interface DiffLine {
  mark: Mark;
  text: string;
}

export type FieldView =
  /** one line: `path: before -> after` */
  | { kind: 'inline'; path: string; before: string; after: string }
  /** `path:` followed by +/- lines */
  | { kind: 'block'; path: string; lines: DiffLine[] }
  /** a single value (a created resource's field) */
  | { kind: 'value'; path: string; text: string };

export interface FieldInput {
  path: string;
  before: unknown;
  after: unknown;
}

/** Unchanged list items beyond this many in a row are collapsed to a count. */
const CONTEXT = 2;

/**
 * A value on one line. Strings are double-quoted so empty values and trailing spaces show, but
 * backslashes are NOT doubled (as JSON would): a regex must read exactly as written in the YAML.
 * What could act on a terminal or break the line layout is escaped by the one rule (inert.ts).
 */
export function formatValue(v: unknown): string {
  if (v === undefined) return '(none)';
  if (typeof v === 'string') return quote(v);
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(formatItem).join(', ')}]`;
  if (isStep(v)) return formatStep(v);
  return inert(JSON.stringify(v));
}

export function quote(s: string): string {
  return `"${inert(s)}"`;
}

function formatItem(v: unknown): string {
  return formatValue(v);
}

interface StepLike {
  kind: string;
  value?: unknown;
  name?: unknown;
  expect?: unknown;
  description?: unknown;
}

function isStep(v: unknown): v is StepLike {
  return typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string';
}

/**
 * Steps as the config writes them: `press 1 (expect "My account")`, `variable phone`, `pin`. The
 * value or name is unquoted, but escaped like any value: a saved plan's steps are shown from the
 * file (plan.schema.json does not restrict them), and a line break or terminal escape in one must
 * not draw lines that are not in the plan. `expect` and `description` read as written, like
 * every other string (quote: backslashes not doubled).
 */
function formatStep(s: StepLike): string {
  const arg = s.value ?? s.name;
  const head = arg === undefined ? s.kind : `${s.kind} ${quote(String(arg)).slice(1, -1)}`;
  const extra: string[] = [];
  if (typeof s.expect === 'string') extra.push(`expect ${quote(s.expect)}`);
  if (typeof s.description === 'string' && s.description !== '') extra.push(`description ${quote(s.description)}`);
  return extra.length ? `${head} (${extra.join(', ')})` : head;
}

function isMultiline(v: unknown): v is string {
  return typeof v === 'string' && v.includes('\n');
}

/** The lines of a value for block display (null/undefined contribute none). */
function blockLines(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.map(formatItem);
  // Each line of a multi-line value is inert on its own: a CR or escape in it draws nothing.
  if (isMultiline(v)) return v.split('\n').map(inert);
  return [formatValue(v)];
}

/** Diffs two values line by line (list items, or lines of text), collapsing long unchanged runs. */
function diffBlock(before: unknown, after: unknown): DiffLine[] {
  const parts = diffArrays(blockLines(before), blockLines(after));
  const out: DiffLine[] = [];
  parts.forEach((part, i) => {
    const mark: Mark = part.added ? '+' : part.removed ? '-' : ' ';
    const items = part.value;
    if (mark !== ' ' || items.length <= 2 * CONTEXT + 1) {
      for (const text of items) out.push({ mark, text });
      return;
    }
    // Keep context next to changes only; a run at the very start or end needs one side.
    const head = i === 0 ? 0 : CONTEXT;
    const tail = i === parts.length - 1 ? 0 : CONTEXT;
    for (const text of items.slice(0, head)) out.push({ mark, text });
    out.push({ mark, text: `… ${items.length - head - tail} unchanged` });
    for (const text of items.slice(items.length - tail)) out.push({ mark, text });
  });
  return out;
}

export interface ViewOptions {
  /** Columns available for `path: before -> after`; wider values become a block. */
  width: number;
}

/** A field of an update, restore or drift: inline when short and scalar, else a block diff. */
export function changeView(f: FieldInput, opts: ViewOptions): FieldView {
  const list = Array.isArray(f.before) || Array.isArray(f.after);
  if (!list && !isMultiline(f.before) && !isMultiline(f.after)) {
    const before = formatValue(f.before);
    const after = formatValue(f.after);
    if (f.path.length + before.length + after.length + 6 <= opts.width) {
      return { kind: 'inline', path: inert(f.path), before, after };
    }
  }
  return { kind: 'block', path: inert(f.path), lines: withCaret(diffBlock(f.before, f.after)) };
}

/**
 * A long single-line value replaced by another (a regex, typically) is hard to compare by eye:
 * a caret line under the new value marks the span that differs, past the common prefix and suffix.
 */
function withCaret(lines: DiffLine[]): DiffLine[] {
  if (lines.length !== 2 || lines[0]!.mark !== '-' || lines[1]!.mark !== '+') return lines;
  const a = [...lines[0]!.text], b = [...lines[1]!.text];
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const span = Math.max(1, b.length - pre - suf);
  return [...lines, { mark: ' ', text: `${' '.repeat(pre)}${'^'.repeat(span)}` }];
}

/** A field of a created resource: its value alone, a list or multi-line text as a + block. */
export function valueView(path: string, value: unknown): FieldView | null {
  // Empty values (no sender, no message template) are defaults: listing them is noise.
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value) || isMultiline(value)) {
    return { kind: 'block', path: inert(path), lines: blockLines(value).map((text) => ({ mark: '+', text })) };
  }
  return { kind: 'value', path: inert(path), text: formatValue(value) };
}
