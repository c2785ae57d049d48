// Pure renderers of Diagnostic[] (config problems, from any command): text with the source line
// and a caret, JSON for tools, and GitHub Actions workflow annotations.

import { formatLoc, type Diagnostic } from '../model/diagnostic.js';
import type { SourceLoc } from '../model/types.js';
import { plural } from '../text/plural.js';
import { inert } from '../text/inert.js';

export interface TextOptions {
  /** File text by displayed name; when given, the offending line is shown with a caret. */
  sources?: ReadonlyMap<string, string>;
  color?: boolean;
}

const paint = (on: boolean | undefined, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);

export function countDiagnostics(list: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = list.filter((d) => d.severity === 'error').length;
  return { errors, warnings: list.length - errors };
}

/** "2 errors, 1 warning" */
export function diagnosticsSummary(list: readonly Diagnostic[]): string {
  const { errors, warnings } = countDiagnostics(list);
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

function headline(d: Diagnostic, color?: boolean): string {
  const where = formatLoc(d.loc);
  const sev = paint(color, d.severity === 'error' ? '31;1' : '33;1', `${d.severity}[${d.code}]`);
  const addr = d.address ? ` ${inert(d.address)}` : '';
  return `${where ? `${where}: ` : ''}${sev}${addr}: ${inert(d.message)}`;
}

function excerpt(d: Diagnostic, lines: (file: string) => string[] | undefined, color?: boolean): string[] {
  return sourceExcerpt(d.loc, lines, color);
}

/** Characters of a source line shown at most (a window around the column beyond). */
const EXCERPT = 200;

/** The source line of `loc` and a caret under its column (none when the file is not at hand). */
export function sourceExcerpt(loc: SourceLoc | undefined, lines: (file: string) => string[] | undefined, color?: boolean): string[] {
  if (!loc) return [];
  const src = lines(loc.file);
  const text = src?.[loc.line - 1];
  if (text === undefined) return [];
  const num = String(loc.line);
  const pad = ' '.repeat(num.length);
  // A long line is shown as a window of it around the column, so the caret stays under it.
  const at = Math.max(0, loc.col - 1);
  const start = text.length > EXCERPT ? Math.max(0, Math.min(at - EXCERPT / 2, text.length - EXCERPT)) : 0;
  const end = Math.min(text.length, start + EXCERPT);
  const before = start > 0 ? '...' : '';
  const shown = `${before}${inertTabs(text.slice(start, end))}${end < text.length ? '...' : ''}`;
  // Keep tabs in the caret line so the caret sits under the right character (of the shown, escaped text).
  const lead = ' '.repeat(before.length) + inertTabs(text.slice(start, at)).replace(/[^\t]/g, ' ');
  return [` ${num} | ${shown}`, ` ${pad} | ${lead}${paint(color, '31;1', '^')}`];
}

/** A source line made inert (inert.ts) but for its tabs, which a terminal only aligns. */
function inertTabs(s: string): string {
  return s.split('\t').map(inert).join('\t');
}

/** The lines of each source file, split once, for sourceExcerpt. */
export function sourceLines(sources: ReadonlyMap<string, string> | undefined): (file: string) => string[] | undefined {
  const cache = new Map<string, string[]>();
  return (file: string) => {
    if (!sources?.has(file)) return undefined;
    let l = cache.get(file);
    if (!l) { l = sources.get(file)!.replace(/^\uFEFF/, '').split(/\r?\n/); cache.set(file, l); }
    return l;
  };
}

/** One block per diagnostic: `file:line:col: error[code] address: message`, source line, caret. */
export function renderDiagnosticsText(list: readonly Diagnostic[], options: TextOptions = {}): string {
  const lines = sourceLines(options.sources);
  return list.map((d) => [headline(d, options.color), ...excerpt(d, lines, options.color)].join('\n') + '\n').join('');
}

export function renderDiagnosticsJson(list: readonly Diagnostic[], extra: Record<string, unknown> = {}): string {
  const { errors, warnings } = countDiagnostics(list);
  return `${JSON.stringify({ valid: errors === 0, errors, warnings, ...extra, diagnostics: list }, null, 2)}\n`;
}

// https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions
export const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=F,line=L,col=C,title=code::message` per diagnostic. */
export function renderGithubAnnotations(list: readonly Diagnostic[]): string {
  return list.map((d) => {
    const props: string[] = [];
    if (d.loc) props.push(`file=${escapeProperty(d.loc.file)}`, `line=${d.loc.line}`, `col=${d.loc.col}`);
    props.push(`title=${escapeProperty(`menuctl ${d.code}`)}`);
    const msg = `${d.address ? `${d.address}: ` : ''}${d.message}`;
    return `::${d.severity} ${props.join(',')}::${escapeData(msg)}\n`;
  }).join('');
}
