// analyze's JSON and text go out a finding at a time: the pieces together must be, byte for byte,
// the document rendered whole (the contract's JSON is JSON.stringify(..., null, 2)).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analysisGithubChunks, analysisJsonChunks, analysisTextChunks } from '../../src/analyze/report.js';
import { escapeData, escapeProperty } from '../../src/report/diagnostics.js';
import { FINDING_KINDS, type AnalysisResult, type Finding } from '../../src/analyze/types.js';

const finding: fc.Arbitrary<Finding> = fc.record({
  kind: fc.constantFrom(...FINDING_KINDS),
  severity: fc.constantFrom('error', 'warning', 'info'),
  parsers: fc.array(fc.string(), { minLength: 1, maxLength: 2 }),
  witness: fc.option(fc.string({ unit: 'binary' })),
  message: fc.string({ unit: 'binary' }),
  location: fc.option(fc.record({ file: fc.string(), line: fc.nat(), col: fc.nat() })),
}) as fc.Arbitrary<Finding>;

const result: fc.Arbitrary<AnalysisResult> = fc.record({
  findings: fc.array(finding, { maxLength: 6 }),
  summary: fc.record({ parsers: fc.nat(), analysed: fc.nat() }),
});

/** What the renderer wrote before it was split into pieces. */
function whole(r: AnalysisResult): string {
  const findings = r.findings.map((f) => ({ kind: f.kind, severity: f.severity, parsers: f.parsers, witness: f.witness, message: f.message, location: f.location }));
  return `${JSON.stringify({ format_version: 1, findings, summary: r.summary }, null, 2)}\n`;
}

/** The GitHub annotations as rendered whole, before they were split into pieces. */
function wholeGithub(r: AnalysisResult): string {
  const level = { error: 'error', warning: 'warning', info: 'notice' } as const;
  return r.findings.map((f) => {
    const props: string[] = [];
    if (f.location) props.push(`file=${escapeProperty(f.location.file)}`, `line=${f.location.line}`, `col=${f.location.col}`);
    props.push(`title=${escapeProperty(`menuctl analyze.${f.kind}`)}`);
    const witness = f.witness === null ? '' : ` (witness: ${JSON.stringify(f.witness)})`;
    return `::${level[f.severity]} ${props.join(',')}::${escapeData(`${f.parsers.join(' vs ')}: ${f.message}${witness}`)}\n`;
  }).join('');
}

describe('analyze output in pieces', () => {
  it('JSON: the pieces are JSON.stringify(document, null, 2) exactly, for any findings (none included)', () => {
    fc.assert(fc.property(result, (r) => {
      expect([...analysisJsonChunks(r)].join('')).toBe(whole(r));
    }), { numRuns: 300 });
  });

  it('GitHub annotations: one whole line per finding, together the annotations rendered whole', () => {
    fc.assert(fc.property(result, (r) => {
      const pieces = [...analysisGithubChunks(r)];
      expect(pieces).toHaveLength(r.findings.length);
      for (const p of pieces) expect(p).toMatch(/^::(error|warning|notice) [^\n]*\n$/);
      expect(pieces.join('')).toBe(wholeGithub(r));
    }), { numRuns: 200 });
  });

  it('text: one piece per finding, then the summary line', () => {
    fc.assert(fc.property(result, (r) => {
      const pieces = [...analysisTextChunks(r, { color: false })];
      expect(pieces).toHaveLength(r.findings.length + 1);
      expect(pieces.at(-1)).toMatch(/^\d+ parsers?, \d+ analysed: /);
    }), { numRuns: 100 });
  });
});
