// Why the parser a fixture expected did not match: the near-misses newcomers hit most.
// Each hint is checked, never guessed: the parser's own translated regex is run in the sandbox on a
// variant of the question (its prefix alone, the text without line breaks, ...), and a hint is
// given only when that variant matches. Runs for failures only, so a clean run pays nothing.

import type { Fixture, DesiredParser } from '../model/types.js';
import type { Message, ParserMatch } from './classify.js';
import { compileJavaPattern } from './java-regex.js';
import type { ExecJob, RegexSandbox } from './sandbox.js';

export interface ExplainOptions {
  /** Also say when a parser of the other channel (ussd vs sms) would have matched. */
  crossChannel: boolean;
}

const quote = (s: string) => JSON.stringify(s);
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/g;
// Group names no Java pattern can use (Java names are letters and digits only), so no clash.
const HEAD = 'menuctlHead_';
const REST = 'menuctlRest_';

/** The parsers the expectation wanted and did not get: the ones worth explaining. */
export function missedParsers<P extends DesiredParser>(expect: Fixture['expect'], parsers: readonly P[], winner: ParserMatch | null): P[] {
  if (expect === 'none') return [];
  if (expect.category !== undefined) {
    return winner?.category === expect.category ? [] : parsers.filter((p) => p.category === expect.category);
  }
  return winner === null ? parsers.filter((p) => expect.status === undefined || p.status === expect.status) : [];
}

interface Probe { parser: string; job: ExecJob; hint: (groups: Record<string, string>) => string }

/** Hints for why `wanted` did not match `message`, most useful first; [] when none is certain. */
export async function explainMiss(
  sandbox: RegexSandbox, message: Message, wanted: readonly DesiredParser[], options: ExplainOptions,
): Promise<string[]> {
  const probes = wanted.flatMap((p) => probesFor(message, p, options));
  if (probes.length === 0) return [];
  const batch = await sandbox.run(probes.map((p) => p.job));
  if (!batch.ok) return [];
  const hints: string[] = [];
  const explained = new Set<string>();
  // Probes are listed most specific first: one hint per parser, the first that holds.
  batch.results.forEach((groups, i) => {
    const probe = probes[i]!;
    if (!groups || explained.has(probe.parser)) return;
    explained.add(probe.parser);
    hints.push(probe.hint(groups));
  });
  return hints;
}

function probesFor(message: Message, p: DesiredParser, options: ExplainOptions): Probe[] {
  const compiled = compileJavaPattern(p.regex);
  if (!compiled.ok || compiled.unfaithful.length > 0) return [];
  const whole = compiled.regex.source;
  const inner = whole.startsWith('^(?:') && whole.endsWith(')$') ? whole.slice(4, -2) : null;
  if (inner === null) return [];
  const name = quote(p.category);
  const job = (source: string, text: string, groups: string[] = []): ExecJob => ({ source, text, groups });
  if (p.target_type !== message.channel) {
    return options.crossChannel
      ? [{ parser: p.category, job: job(whole, message.text), hint: () => `parser ${name} matches this text, but it reads ${p.target_type} messages and this one is ${message.channel}${message.channel === 'sms' ? ' (a fixture with `sender:` is an sms)' : ''}.` }]
      : [];
  }
  if (p.target_type === 'sms' && p.sender !== message.sender) {
    const sender = message.sender ?? '';
    if (p.sender !== null && p.sender.toLowerCase() === sender.toLowerCase()) {
      return [{ parser: p.category, job: job(whole, message.text), hint: () => `parser ${name} matches this text, but its sender is ${quote(p.sender!)} and the message's is ${quote(sender)}: senders differ only in case, and the device compares them exactly.` }];
    }
    return [{ parser: p.category, job: job(whole, message.text), hint: () => `parser ${name} matches this text, but it reads only SMS from ${quote(p.sender ?? '')}, not ${quote(sender)}.` }];
  }
  const probes: Probe[] = [];
  const text = message.text;
  // Whitespace at the ends first: a line break YAML keeps at the end of a `|` block is that, not
  // a reply spanning lines.
  const trimmed = text.trim();
  if (trimmed !== text && trimmed !== '') {
    const where = text.trimEnd() !== text ? 'ends' : 'starts';
    probes.push({ parser: p.category, job: job(whole, trimmed), hint: () => `parser ${name} would match without the whitespace the reply ${where} with (${quote(where === 'ends' ? text.slice(text.trimEnd().length) : text.slice(0, text.length - text.trimStart().length))}): allow it with \\s* (or .*) at the ${where === 'ends' ? 'end' : 'start'}.` });
  }
  const flat = text.replace(LINE_BREAK, ' ');
  if (flat !== text) {
    const line = text.split(LINE_BREAK)[0]!.length;
    probes.push({ parser: p.category, job: job(whole, flat), hint: () => `parser ${name} would match if the reply had no line breaks: \`.\` stops at the line break after ${quote(text.slice(Math.max(0, line - 20), line))}; use [\\s\\S]* (or \\s+) where the reply spans lines.` });
  }
  probes.push({
    parser: p.category,
    job: job(`^(?:${inner})(?<${REST}>[\\s\\S]+)$`, text, [REST]),
    hint: (g) => `parser ${name} matches only the start of the reply, up to ${quote(shorten(text.slice(0, text.length - g[REST]!.length), true))}; the device matches the whole message, so end the regex with .*${/[\r\n]/.test(g[REST]!) ? ' (or [\\s\\S]* since the rest spans lines)' : ''}.`,
  });
  // A group in front would renumber the pattern's own groups: skip when it refers to one by number.
  if (/\\[1-9]/.test(inner)) return probes;
  probes.push({
    parser: p.category,
    job: job(`^(?<${HEAD}>[\\s\\S]+?)(?:${inner})(?<${REST}>[\\s\\S]*)$`, text, [HEAD, REST]),
    hint: (g) => `parser ${name} matches only part of the reply (from ${quote(shorten(text.slice(g[HEAD]!.length), false))}); the device matches the whole message, so start the regex with .*${g[REST] ? ' and end it with .*' : ''}.`,
  });
  return probes;
}

function shorten(s: string, tail: boolean, max = 40): string {
  if (s.length <= max) return s;
  return tail ? `...${s.slice(s.length - max + 3)}` : `${s.slice(0, max - 3)}...`;
}
