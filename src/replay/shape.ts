// The shape of a message no parser matched (docs/replay.md "Unclassified"): scrubbed as
// `sessions import` scrubs (src/sessions/scrub.ts), then names, e-mail addresses, transaction
// codes, amounts and other numbers replaced by placeholders, so the thousand variants of one new
// wording count as one group. Pure.

import { scrubText } from '../sessions/scrub.js';

// Operator transaction codes: upper-case letters and digits mixed (QAB1CD2EF3), not a currency
// glued to an amount (KES1200) nor a word.
const TOKEN = /(?<![\p{L}\p{N}])[A-Z0-9]{6,}(?![\p{L}\p{N}])/gu;
const AMOUNT = /\p{Nd}{1,3}(?:,\p{Nd}{3})+(?:\.\p{Nd}+)?|\p{Nd}+\.\p{Nd}{2}(?!\p{Nd}|\.\p{Nd})/gu;
const NUMBER = /\p{Nd}+/gu;

export function shapeOf(text: string, keep: readonly string[] = []): string {
  let s = scrubText(text, keep);
  s = s.replace(/user@example\.com/g, '<email>');
  s = s.replace(/JANE DOE|Jane Doe/g, '<name>');
  s = s.replace(TOKEN, (t) => (isCode(t) ? '<code>' : t));
  s = s.replace(AMOUNT, '<amount>');
  s = s.replace(NUMBER, '<n>');
  return s.replace(/\s+/g, ' ').trim();
}

function isCode(t: string): boolean {
  const digits = t.replace(/\D/g, '').length;
  const letters = t.length - digits;
  return digits >= 1 && letters >= 2 && !/^[A-Z]+\d+$/.test(t);
}
