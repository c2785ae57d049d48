// Which parsers match a reply on the device: the parser's channel must be the message's, an sms
// parser's sender must equal the message's sender exactly (case-sensitive), and the regex must
// match the whole text under Java's CASE_INSENSITIVE semantics. All matches are returned in config
// order; the caller decides what wins (menuctl test: the first one, see docs/regex.md).
import type { DesiredParser, ParserStatus, TargetType } from '../model/types.js';
import { compileJavaPattern } from './java-regex.js';
import { replyObstacle } from './reply-checks.js';

export interface Message {
  text: string;
  channel: TargetType;
  sender?: string;
}

export interface ParserMatch {
  /** Position of the parser in the list given (config order). */
  index: number;
  category: string;
  status: ParserStatus;
  /** Named groups that took part in the match; groups Java reports as null are omitted. */
  variables: Record<string, string>;
}

export interface Unevaluable {
  index: number;
  category: string;
  reason: string;
}

export interface Classification {
  matches: ParserMatch[];
  unevaluable: Unevaluable[];
}

/** A parser whose regex we can run: its JS stand-in and named groups. */
export interface Runnable {
  index: number;
  category: string;
  status: ParserStatus;
  regex: RegExp;
  groups: string[];
}

export interface Prepared {
  runnable: Runnable[];
  unevaluable: Unevaluable[];
}

export function appliesTo(parser: DesiredParser, message: Message): boolean {
  if (parser.target_type !== message.channel) return false;
  if (parser.target_type === 'sms') return message.sender !== undefined && parser.sender === message.sender;
  return true;
}

/** The parsers that apply to the message, compiled; no regex is run here. */
export function prepare(message: Message, parsers: readonly DesiredParser[]): Prepared {
  const out: Prepared = { runnable: [], unevaluable: [] };
  let obstacle: string | null;
  parsers.forEach((parser, index) => {
    if (!appliesTo(parser, message)) return;
    const compiled = compileJavaPattern(parser.regex);
    const base = { index, category: parser.category };
    if (!compiled.ok) {
      out.unevaluable.push({ ...base, reason: compiled.issues.map((i) => i.message).join('; ') });
    } else if (compiled.unfaithful.length > 0) {
      out.unevaluable.push({ ...base, reason: compiled.unfaithful.map((u) => u.message).join('; ') });
    } else if ((obstacle = replyObstacle(compiled.needs, message.text)) !== null) {
      out.unevaluable.push({ ...base, reason: obstacle });
    } else {
      out.runnable.push({ ...base, status: parser.status, regex: compiled.regex, groups: compiled.groups });
    }
  });
  return out;
}

/** exec results (null: no match; else the named group values) -> matches, in config order. */
export function collect(prepared: Prepared, results: readonly (Record<string, string> | null)[]): Classification {
  const matches: ParserMatch[] = [];
  prepared.runnable.forEach((r, i) => {
    const variables = results[i];
    if (variables) matches.push({ index: r.index, category: r.category, status: r.status, variables });
  });
  return { matches, unevaluable: prepared.unevaluable };
}
