// Renders a replay report (src/replay/tally.ts, CONTRACT.md "Replay"): text for a terminal or CI
// log, JSON as the contract writes it, markdown for the pull-request comment. Every message in
// the report was scrubbed when it was counted. Every string in it came from a file (a record's
// messages, status, category and sender, its path, the config's names), so each goes out through
// the one inert rule (src/text/inert.ts: ESC, OSC, C1 CSI, bidi overrides, lone CR escaped); the
// JSON with its values exact (inertJson); markdown also escapes what GitHub acts on (backticks, `|`,
// HTML, @mentions, links). Pure.

import type { ReplayReport } from '../replay/tally.js';
import { inert as inertText, inertJson } from '../text/inert.js';
import { escapeHtml, fitDocument, type Section } from './markdown-util.js';

const fmt = (n: number) => n.toLocaleString('en');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;
const oneLine = (s: string) => s.replace(/\r?\n/g, ' ⏎ ');
/** A string from a file, quoted on one line as in the text report. */
const quoted = (s: string) => inertText(JSON.stringify(oneLine(s)));

export function renderReplayJson(r: ReplayReport): string {
  return `${inertJson(JSON.stringify(r, null, 2))}\n`;
}

export interface TextOptions {
  /** Changes and unclassified groups listed before "N more". */
  limit?: number;
}

function against(r: ReplayReport): string {
  return r.compared_with === 'baseline' ? 'the baseline config' : "each record's own outcome";
}

function summaryLine(r: ReplayReport): string {
  const s = r.summary;
  const errors = s.errors > 0 ? `, ${plural(s.errors, 'error')} (a parser that cannot be evaluated faithfully, or too slow)` : '';
  return `${plural(s.transactions, 'transaction')}: ${fmt(s.same)} same, ${fmt(s.changed)} changed, ${fmt(s.unmatched_action)} with no action in the config${errors}`;
}

export function renderReplayText(r: ReplayReport, o: TextOptions = {}): string {
  const limit = o.limit ?? 50;
  const out = [`Replay against ${against(r)}`, `  ${summaryLine(r)}`];
  if (r.matrix.length > 0) {
    out.push('', 'Moves (from -> to):');
    out.push(...table(['count', 'from', 'to'], r.matrix.map((m) => [fmt(m.count), inertText(m.from), inertText(m.to)]), [true, false, false]));
  }
  if (r.changes.length > 0) {
    out.push('', `Changed transactions (${fmt(r.changes.length)}):`);
    for (const c of r.changes.slice(0, limit)) {
      out.push(`  ${inertText(c.record)}  ${inertText(c.action)}  ${inertText(c.from)} -> ${inertText(c.to)}`);
      if (c.message !== null) out.push(`      ${quoted(c.message)}`);
    }
    if (r.changes.length > limit) out.push(`  ... ${fmt(r.changes.length - limit)} more (--format json lists them all)`);
  }
  if (r.unclassified.length > 0) {
    out.push('', 'Messages no parser matched, by shape (most frequent first):');
    const rows = r.unclassified.slice(0, limit).map((g) => [fmt(g.count), inertText(g.action), g.channel === 'sms' ? `sms from ${inertText(g.sender ?? '')}` : 'ussd', quoted(g.template)]);
    out.push(...table(['count', 'action', 'channel', 'shape'], rows, [true, false, false, false]));
    const more = r.unclassified.length - Math.min(limit, r.unclassified.length) + r.unclassified_omitted;
    if (more > 0) out.push(`  ... ${plural(more, 'more shape')} (--format json lists them)`);
  }
  if (r.unmatched.length > 0) {
    out.push('', 'Records whose action is not in the config:');
    out.push(...table(['count', 'action'], r.unmatched.slice(0, limit).map((u) => [fmt(u.count), quoted(u.action)]), [true, false]));
  }
  return `${out.join('\n')}\n`;
}

function table(head: string[], rows: string[][], right: boolean[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`;
  return [line(head), ...rows.map(line)];
}

/**
 * Text from a record as inert markdown inside a table cell: the one inert rule first (terminal
 * controls, bidi, lone CR), then HTML escaped, and every character markdown or GitHub could act on
 * (emphasis, links, autolinks, @mentions, #references, `|`) as a numeric entity, which the browser
 * shows as the character itself.
 */
function mdCell(s: string): string {
  return `<code>${escapeHtml(inertText(oneLine(s))).replace(/[\\`*_[\]()#!@~|:{}+=-]/g, (c) => `&#${c.codePointAt(0)};`)}</code>`;
}

export const REPLAY_HEADING = '### Behaviour on recorded traffic';

export function renderReplayMarkdown(r: ReplayReport, o: { maxChars?: number; limit?: number } = {}): string {
  const limit = o.limit ?? 100;
  const head = [REPLAY_HEADING, '', `Replayed against ${against(r)}: ${summaryLine(r)}.`].join('\n');
  const sections: Section[] = [];
  if (r.matrix.length > 0) {
    const rows = r.matrix.map((m) => `| ${fmt(m.count)} | ${mdCell(m.from)} | ${mdCell(m.to)} |`);
    sections.push({ text: ['| transactions | from | to |', '|---:|---|---|', ...rows].join('\n'), items: 0 });
  }
  if (r.unclassified.length > 0) {
    const rows = r.unclassified.slice(0, limit).map((g) =>
      `| ${fmt(g.count)} | ${mdCell(g.action)} | ${g.channel === 'sms' ? `sms ${mdCell(g.sender ?? '')}` : 'ussd'} | ${mdCell(g.template)} |`);
    sections.push({ text: ['**Messages no parser matched** (most frequent first: new wording that may need a parser)', '', '| count | action | channel | shape |', '|---:|---|---|---|', ...rows].join('\n'), items: 0 });
  }
  for (const [i, c] of r.changes.slice(0, limit).entries()) {
    const first = i === 0 ? `**Changed transactions** (${fmt(r.changes.length)}${r.changes.length > limit ? `, the first ${limit}` : ''})\n\n` : '';
    const message = c.message !== null ? `<br>${mdCell(c.message)}` : '';
    sections.push({ text: `${first}- ${mdCell(c.record)} ${mdCell(c.action)}: ${mdCell(c.from)} → ${mdCell(c.to)}${message}`, items: 1 });
  }
  const note = (n: number) => `> ${plural(n, 'change')} left out to keep this comment short: run \`menuctl replay --format json\` for all of them.`;
  return fitDocument({ head, sections, tail: '', maxChars: o.maxChars ?? 20_000, note }).trimEnd() + '\n';
}
