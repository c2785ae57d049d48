// A Hover transaction -> a session for `sessions:` (menuctl sessions import), personal data
// scrubbed (scrub.ts). The outcome Hover recorded becomes the expectation, so the session pins
// today's behaviour: a regression test. Pure; the CLI reads the file and writes the YAML.

import type { HoverTransaction } from './hover-record.js';
import { SECRET_PROMPT, scrubSender, scrubText, scrubValue } from './scrub.js';

export interface ImportedSession {
  name: string;
  variables?: Record<string, string>;
  screens: string[];
  sms?: { sender: string; message: string }[];
  expect: 'none' | { category?: string; status?: string; variables?: Record<string, string> };
}

export interface Imported {
  actionName: string | null;
  session: ImportedSession;
  /** Said in a comment above the session: what a reviewer should know. */
  notes: string[];
}

const STATUSES = new Set(['succeeded', 'failed', 'pending']);

export function importSession(t: HoverTransaction, options: { name?: string } = {}): Imported {
  // Sender ids are the operator's, never a person's: they survive the name rules.
  const keep = [...new Set(t.sms.map((m) => m.sender))];
  // The messages first: the names their rules find are replaced in the variables too.
  const names = new Set<string>();
  const screens = t.screens.map((s) => scrubText(s, keep, names));
  const sms = t.sms.map((m) => ({ sender: scrubSender(m.sender), message: scrubText(m.message, keep, names) }));
  const scrubMap = (m: Record<string, string>, entered: boolean) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, scrubValue(k, v, keep, names, entered)]));
  const variables = scrubMap(t.inputExtras, true);
  const session: ImportedSession = {
    name: options.name ?? defaultName(t),
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
    screens,
    ...(sms.length > 0 ? { sms } : {}),
    expect: expectOf(t, scrubMap(t.parsedVariables, false)),
  };
  return { actionName: t.actionName === null ? null : scrubText(t.actionName, keep), session, notes: notesOf(t, keep) };
}

function defaultName(t: HoverTransaction): string {
  const day = t.initiatedAt?.slice(0, 10);
  return ['imported', day, t.status, t.category].filter((x) => x).join(' ');
}

function expectOf(t: HoverTransaction, variables: Record<string, string>): ImportedSession['expect'] {
  // No category: no parser matched (Hover leaves a transaction pending until one does).
  if (t.category === null) return 'none';
  return {
    category: t.category,
    ...(t.status !== null && STATUSES.has(t.status) ? { status: t.status } : {}),
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
  };
}

function notesOf(t: HoverTransaction, keep: readonly string[]): string[] {
  const notes = ['Imported from a Hover transaction; phone numbers and names were scrubbed (docs/sessions.md). Review before committing.'];
  if (t.valuesEntered.length > 0) {
    notes.push(`Values entered: ${t.valuesEntered.map((v, i) => enteredValue(v, t.screens[i], keep)).join(', ')} (${t.valuesEntered.length} steps; the session needs ${t.valuesEntered.length + 1} screens, it has ${t.screens.length}).`);
  }
  if (t.smsMisses > 0) notes.push(`${t.smsMisses} SMS that no parser matched (sms_misses) were left out.`);
  return notes;
}

/**
 * Value i answers screen i. Whatever answered a screen asking for a PIN or password is the PIN,
 * whether Hover recorded it as a placeholder or as the digits typed.
 */
function enteredValue(value: string, screen: string | undefined, keep: readonly string[]): string {
  if (/pin/i.test(value) || (screen !== undefined && SECRET_PROMPT.test(screen))) return '(pin)';
  return scrubValue('value', value, keep);
}
