// Renderers of an analysis: text (like validate: `file:line:col: severity[analyze.kind] address:
// message`, the source line and a caret), the contract's JSON, and GitHub Actions annotations.
import { formatLoc } from '../model/diagnostic.js';
import { escapeData, escapeProperty, sourceExcerpt, sourceLines } from '../report/diagnostics.js';
import { plural } from '../text/plural.js';
import type { AnalysisResult, Finding } from './types.js';

const paint = (on: boolean, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
const COLOR = { error: '31;1', warning: '33;1', info: '36' } as const;

export function renderAnalysisText(result: AnalysisResult, o: { sources?: ReadonlyMap<string, string>; color: boolean }): string {
  return [...analysisTextChunks(result, o)].join('');
}

/**
 * The text in pieces, a finding each, for a caller that writes as it goes: a big config's findings
 * need never be one string.
 */
export function* analysisTextChunks(result: AnalysisResult, o: { sources?: ReadonlyMap<string, string>; color: boolean }): Generator<string> {
  const lines = sourceLines(o.sources);
  for (const f of result.findings) {
    const where = formatLoc(f.location ?? undefined);
    const sev = paint(o.color, COLOR[f.severity], `${f.severity}[analyze.${f.kind}]`);
    let out = `${where ? `${where}: ` : ''}${sev} ${f.parsers.join(' vs ')}: ${f.message}\n`;
    if (f.witness !== null) out += `  witness: ${JSON.stringify(f.witness)}\n`;
    for (const l of sourceExcerpt(f.location ?? undefined, lines, o.color)) out += `${l}\n`;
    yield out;
  }
  yield `${summaryLine(result)}\n`;
}

/** "12 parsers, 11 analysed: 1 error, 2 warnings, 3 notes" */
export function summaryLine(result: AnalysisResult): string {
  const count = (s: Finding['severity']) => result.findings.filter((f) => f.severity === s).length;
  const { parsers, analysed } = result.summary;
  return `${plural(parsers, 'parser')}, ${analysed} analysed: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('info'), 'note')}`;
}

export function renderAnalysisJson(result: AnalysisResult): string {
  return [...analysisJsonChunks(result)].join('');
}

/**
 * `JSON.stringify({ format_version: 1, findings, summary }, null, 2)` and a newline, in pieces (a
 * finding each), byte for byte, never the whole as one string.
 */
export function* analysisJsonChunks(result: AnalysisResult): Generator<string> {
  const indent = (json: string, by: string) => json.replace(/\n/g, `\n${by}`);
  if (result.findings.length === 0) yield '{\n  "format_version": 1,\n  "findings": [],\n';
  else {
    yield '{\n  "format_version": 1,\n  "findings": [\n';
    let first = true;
    for (const f of result.findings) {
      // Keys in the contract's order, whatever order the finding was built in.
      const ordered = { kind: f.kind, severity: f.severity, parsers: f.parsers, witness: f.witness, message: f.message, location: f.location };
      yield `${first ? '' : ',\n'}    ${indent(JSON.stringify(ordered, null, 2), '    ')}`;
      first = false;
    }
    yield '\n  ],\n';
  }
  yield `  "summary": ${indent(JSON.stringify(result.summary, null, 2), '  ')}\n}\n`;
}

const LEVEL = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** `::warning file=F,line=L,col=C,title=menuctl analyze.overlap::message`, one piece per finding, written as it goes. */
export function* analysisGithubChunks(result: AnalysisResult): Generator<string> {
  for (const f of result.findings) {
    const props: string[] = [];
    if (f.location) props.push(`file=${escapeProperty(f.location.file)}`, `line=${f.location.line}`, `col=${f.location.col}`);
    props.push(`title=${escapeProperty(`menuctl analyze.${f.kind}`)}`);
    const witness = f.witness === null ? '' : ` (witness: ${JSON.stringify(f.witness)})`;
    yield `::${LEVEL[f.severity]} ${props.join(',')}::${escapeData(`${f.parsers.join(' vs ')}: ${f.message}${witness}`)}\n`;
  }
}

/** Exit status per the contract: errors fail; with --strict warnings fail too. */
export function analysisFails(result: AnalysisResult, strict: boolean): boolean {
  return result.findings.some((f) => f.severity === 'error' || (strict && f.severity === 'warning'));
}
