// Small helpers for GitHub-flavoured markdown: escaping text that lands in HTML or table
// cells, fences that user content (a regex with ``` in it) cannot close, and truncation by
// whole sections so a comment never exceeds GitHub's size limit mid-block.
//
// Every string from an API or a file goes through `mdText` (in prose) or `code` (inline code),
// or into a `fenced` block as lines already made inert: first the one escaping rule for
// terminals and logs (inert.ts), then what markdown alone needs, so a name cannot close a tag
// (`</details>`), open one, end a table cell (`|`), start emphasis, a link or a code span, or
// @mention (ping) someone in a pull-request comment.

import { inert } from '../text/inert.js';

/** For text content (not attributes): quotes need no escaping there and read better raw. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * What markdown would still act on after escapeHtml, as entities (an entity shows the character
 * without its meaning; GitHub reads markdown even inside inline HTML such as <code>): `|` ends a
 * table cell; backticks, `*`, `_` start code or emphasis; `](` and `][` make a link of
 * `[text](url)`; a backslash before punctuation is eaten as an escape. Brackets alone stay, so an
 * address (`action["x"]`) reads as written.
 */
function markdownInert(s: string): string {
  return escapeHtml(inert(s))
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '&#92;')
    .replace(/[|`*_]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/\](?=[([])/g, '&#93;');
}

/**
 * Text from outside (a name, an API's message) as markdown prose: markdownInert, and `@`
 * followed by a zero-width space (as an entity) so `@someone` is not a mention that notifies
 * them (what Dependabot and Renovate do). Inside <code> GitHub makes no mention.
 */
export function mdText(s: string): string {
  return markdownInert(s).replace(/@/g, '@&#8203;');
}

/** Inline code that survives backticks, pipes, markdown and HTML in names. */
export function code(s: string): string {
  return `<code>${markdownInert(s)}</code>`;
}

/**
 * One of menuctl's own sentences (a warning, a note) as markdown prose. They quote commands and
 * config keys in backticks (`menuctl import ...`, `ignore:`), which mdText would show as `&#96;`
 * wherever the markdown is read unrendered (a log, `--format markdown` in a terminal): each
 * quoted span becomes code() instead, the rest mdText. Both are inert, so a name inside the
 * sentence that holds a backtick can only move where a code span starts, never make anything
 * active; an unpaired last backtick stays a character.
 */
export function mdProse(s: string): string {
  const parts = s.split('`');
  if (parts.length % 2 === 0) parts.splice(-2, 2, `${parts.at(-2)}\`${parts.at(-1)}`);
  return parts.map((p, i) => (i % 2 === 1 ? code(p) : mdText(p))).join('');
}

/** A warnings list for a markdown report (plan, drift). */
export function warningsList(warnings: readonly { message: string }[]): string {
  return ['**Warnings**', '', ...warnings.map((w) => `- ⚠️ ${mdProse(w.message)}`)].join('\n');
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
export function fenced(lang: string, lines: string[]): string {
  const body = lines.join('\n');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

export function details(summaryHtml: string, body: string): string {
  return `<details>\n<summary>${summaryHtml}</summary>\n\n${body}\n\n</details>`;
}

export interface Section {
  text: string;
  /** how many changes or items the section holds, for the "left out" note */
  items: number;
}

export interface Fitted {
  kept: string[];
  omittedItems: number;
}

/**
 * Keeps sections in order while they fit in `budget` characters (each joined with a blank
 * line); once one does not fit, it and every later one are left out, so the kept part is a
 * prefix a reader can trust to be complete up to that point.
 */
function fitSections(sections: Section[], budget: number): Fitted {
  const kept: string[] = [];
  let used = 0;
  let omittedItems = 0;
  let full = false;
  for (const s of sections) {
    const cost = s.text.length + 2;
    if (!full && used + cost <= budget) {
      kept.push(s.text);
      used += cost;
    } else {
      full = true;
      omittedItems += s.items;
    }
  }
  return { kept, omittedItems };
}

/**
 * head, the sections that fit, a note saying how many items were left out (only when some
 * were), and tail, joined by blank lines, in at most `maxChars` characters.
 */
export function fitDocument(o: { head: string; sections: Section[]; tail: string; maxChars: number; note: (omitted: number) => string }): string {
  const frame = o.head.length + o.tail.length;
  let fitted = fitSections(o.sections, o.maxChars - frame - 4);
  if (fitted.kept.length < o.sections.length) {
    // Leave room for the note itself, sized for the worst case (every section left out).
    fitted = fitSections(o.sections, o.maxChars - frame - o.note(o.sections.length).length - 6);
  }
  const parts = [o.head, ...fitted.kept];
  if (fitted.kept.length < o.sections.length) parts.push(o.note(fitted.omittedItems));
  parts.push(o.tail);
  return parts.join('\n\n') + '\n';
}
