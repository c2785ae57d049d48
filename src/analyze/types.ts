// The findings of `menuctl analyze` (CONTRACT.md, "Parser analysis"), as report.ts renders them
// (analyze keeps them compact until then: finding.ts). A finding is a proof (a witness checked by
// the test engine, or an automaton fact that only over-approximation could have produced), never
// a guess.
import type { SourceLoc } from '../model/types.js';

export const FINDING_KINDS = ['dead', 'overlap', 'shadowed', 'fixture-overlap', 'not-analysed', 'uncovered'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];
export type FindingSeverity = 'error' | 'warning' | 'info';

export const SEVERITY: Record<FindingKind, FindingSeverity> = {
  dead: 'error',
  overlap: 'warning',
  shadowed: 'warning',
  'fixture-overlap': 'warning',
  'not-analysed': 'info',
  uncovered: 'info',
};

export interface Finding {
  kind: FindingKind;
  severity: FindingSeverity;
  /** Parser addresses: the parser the finding is about first. */
  parsers: string[];
  /** A whole message that both parsers match on the device (checked by the test engine), or null. */
  witness: string | null;
  message: string;
  location: SourceLoc | null;
}

export interface AnalysisResult {
  findings: Finding[];
  summary: { parsers: number; analysed: number };
}
