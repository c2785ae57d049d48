// A finding as analyze holds it until the report: the action and parser(s) it is about (the
// model's own objects, alive anyway), the one text its message quotes (a witness or a reason) and
// its place as numbers. Its addresses, message and location are worked out each time they are
// read (once, by the renderer): held as plain data, each finding had two addresses, a message, an
// array and a location object of its own, several times what this holds.
import { parserAddress } from '../model/address.js';
import type { DesiredAction, DesiredParser, SourceLoc } from '../model/types.js';
import { FINDING_KINDS, SEVERITY, type Finding, type FindingKind } from './types.js';
import type { Subject } from './subjects.js';

const quote = (s: string) => JSON.stringify(s);
const outcome = (p: DesiredParser) => `${quote(p.category)} (${p.status})`;

/**
 * What a finding says, each in its words: `about` is the parser it is about (the inner one of a
 * shadowed pair, the expected one of a fixture overlap), `other` the second parser, `text` the
 * witness (the fixture's message for a fixture overlap) or, for one not analysed, the reason.
 */
const SAYS = {
  dead: { kind: 'dead', witnessed: false, message: (f: Parts) => `no message can ever match ${quote(f.about.category)} on the device (e.g. \\b between two word characters, or anchors in the middle); fix the pattern or remove the parser` },
  outside: { kind: 'not-analysed', witnessed: false, message: (f: Parts) => `${quote(f.about.category)} is outside what the analysis decides: ${f.text}` },
  undecided: { kind: 'not-analysed', witnessed: false, message: (f: Parts) => `whether ${outcome(f.about)} and ${outcome(f.other!)} can match the same message was not decided: ${f.text}` },
  overlap: { kind: 'overlap', witnessed: true, message: (f: Parts) => `${outcome(f.about)} and ${outcome(f.other!)} both match ${quote(f.text!)}; which one the device picks is not documented: make the patterns exclusive (a more specific literal, or a negative look-ahead in one of them)` },
  shadowed: { kind: 'shadowed', witnessed: true, message: (f: Parts) => shadowed(f, `matches only messages that ${outcome(f.other!)} also matches (e.g. ${quote(f.text!)})`) },
  same: { kind: 'shadowed', witnessed: true, message: (f: Parts) => shadowed(f, `matches exactly the messages ${outcome(f.other!)} matches`) },
  'fixture-overlap': { kind: 'fixture-overlap', witnessed: true, message: (f: Parts) => `this fixture expects ${quote(f.about.category)} (${f.about.status}) but ${quote(f.other!.category)} (${f.other!.status}) matches ${quote(f.text!)} too; which one the device picks is not documented: make the patterns exclusive` },
  uncovered: { kind: 'uncovered', witnessed: false, message: (f: Parts) => `no fixture expects ${quote(f.about.category)}: add a message it must match under tests: (expect: { category: ${f.about.category} })` },
} satisfies Record<string, { kind: FindingKind; witnessed: boolean; message: (f: Parts) => string }>;

export type Says = keyof typeof SAYS;

interface Parts { about: DesiredParser; other: DesiredParser | null; text: string | null }

function shadowed(f: Parts, what: string): string {
  return `${outcome(f.about)} ${what}, so its outcome depends on which parser the device tries first: narrow ${quote(f.other!.category)} to exclude these messages, or merge the two`;
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

export class KeptFinding implements Finding, Parts {
  private readonly action: DesiredAction;
  readonly about: DesiredParser;
  readonly other: DesiredParser | null;
  readonly text: string | null;
  /** The location as numbers (file null: none), read now: a lazy one holds its state and path. */
  private readonly file: string | null;
  private readonly line: number;
  private readonly col: number;

  constructor(private readonly says: Says, about: Subject, other: Subject | null, text: string | null, loc: SourceLoc | undefined) {
    this.action = about.action;
    this.about = about.parser;
    this.other = other?.parser ?? null;
    this.text = text;
    this.file = loc?.file ?? null;
    this.line = loc?.line ?? 0;
    this.col = loc?.col ?? 0;
  }

  get kind(): FindingKind {
    return SAYS[this.says].kind;
  }

  get severity(): Finding['severity'] {
    return SEVERITY[this.kind];
  }

  get parsers(): string[] {
    const about = parserAddress(this.action.name, this.about.category);
    return this.other ? [about, parserAddress(this.action.name, this.other.category)] : [about];
  }

  get witness(): string | null {
    return SAYS[this.says].witnessed ? this.text : null;
  }

  get message(): string {
    return SAYS[this.says].message(this);
  }

  get location(): SourceLoc | null {
    return this.file === null ? null : { file: this.file, line: this.line, col: this.col };
  }

  /**
   * The report's order: errors first, then by kind, then by place (file, line, column). Ties keep
   * the order found in (Array.prototype.sort is stable): stable output for golden files and CI logs.
   */
  static compare(x: KeptFinding, y: KeptFinding): number {
    const fx = x.file ?? '';
    const fy = y.file ?? '';
    return RANK[x.severity] - RANK[y.severity]
      || FINDING_KINDS.indexOf(x.kind) - FINDING_KINDS.indexOf(y.kind)
      || (fx < fy ? -1 : fx > fy ? 1 : 0)
      || x.line - y.line
      || x.col - y.col;
  }
}
