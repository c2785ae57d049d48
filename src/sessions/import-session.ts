// A Hover transaction -> a session for `sessions:` (menuctl sessions import), personal data
// scrubbed (scrub.ts). The outcome Hover recorded becomes the expectation, so the session pins
// today's behaviour: a regression test. Pure; the CLI reads the file and writes the YAML.

import type { Step } from '../model/types.js';
import { enteredVariables } from './entered-variables.js';
import type { HoverTransaction } from './hover-record.js';
import { menuOptionsShown, SECRET_PROMPT, scrubSender, scrubText, scrubValue, type ValueContext } from './scrub.js';

export interface ImportedSession {
  name: string;
  variables?: Record<string, string>;
  screens: string[];
  sms?: { sender: string; message: string }[];
  expect: 'none' | { category?: string; status?: string; variables?: Record<string, string> };
}

/** A parser fixture for `tests:`: what an SMS-only transaction imports as (it has no session to replay). */
export interface ImportedFixture {
  message: string;
  sender: string;
  expect: ImportedSession['expect'];
}

export interface Imported {
  actionName: string | null;
  /** A session for `sessions:`; or, for an SMS-only transaction, `fixtures` for `tests:`. */
  session?: ImportedSession;
  fixtures?: ImportedFixture[];
  /** Said in a comment above the session: what a reviewer should know. */
  notes: string[];
}

const STATUSES = new Set(['succeeded', 'failed', 'pending']);

export interface ImportOptions {
  name?: string;
  /** The config's action this record ran (sessions import FILE PATH...): its variables come from the values entered. */
  action?: { name: string; steps: readonly Step[] };
}

export function importSession(t: HoverTransaction, options: ImportOptions = {}): Imported {
  // Sender ids are the operator's, never a person's: they survive the name rules.
  const keep = [...new Set(t.sms.map((m) => m.sender))];
  // The messages first: the names their rules find are replaced in the variables too.
  const names = new Set<string>();
  const screens = t.screens.map((s) => scrubText(s, keep, names));
  const sms = t.sms.map((m) => ({ sender: scrubSender(m.sender), message: scrubText(m.message, keep, names) }));
  // A value that is one of the menu's options is menu text, whatever its key says (`account_type: Savings`).
  const context: ValueContext = { keep, names, options: menuOptionsShown(t.screens, screens) };
  const scrubMap = (m: Record<string, string>, entered: boolean) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, scrubValue(k, v, { ...context, entered })]));
  const notes = notesOf(t, keep);
  const expect = expectOf(t, scrubMap(t.parsedVariables, false));
  const actionName = t.actionName === null ? null : scrubText(t.actionName, keep);
  if (screens.length === 0) return { actionName, fixtures: smsFixtures(sms, expect, notes), notes };
  const variables = scrubMap(t.inputExtras, true);
  if (options.action) {
    // What was entered is what the network saw: it wins over the app's input_extras.
    const entered = enteredVariables(options.action.steps, t.valuesEntered, screens, (k, v) => scrubValue(k, v, { ...context, entered: true }));
    Object.assign(variables, entered.variables);
    notes.push(...entered.problems);
  }
  const session: ImportedSession = {
    name: options.name ?? defaultName(t),
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
    screens,
    ...(sms.length > 0 ? { sms } : {}),
    expect,
  };
  return { actionName, session, notes };
}

/**
 * An SMS-only transaction has no screens, so no session: each SMS becomes a fixture. The recorded
 * outcome is the last match (as a session's is), so only the last SMS is known to give it; the
 * earlier ones are left to the reviewer rather than given an outcome the record does not show.
 */
function smsFixtures(sms: readonly { sender: string; message: string }[], expect: ImportedSession['expect'], notes: string[]): ImportedFixture[] {
  notes.push('SMS only: the record has no USSD screens, so it imports as parser fixtures for `tests:`, not as a session.');
  if (sms.length > 1) notes.push(`The record's outcome is that of its last SMS; the ${sms.length - 1} before it are not imported (which parser they met is not recorded).`);
  const last = sms[sms.length - 1]!;
  return [{ message: last.message, sender: last.sender, expect }];
}

function defaultName(t: HoverTransaction): string {
  const day = t.initiatedAt?.slice(0, 10);
  // A failure no parser matched says so in its name too, not only in `expect: none`.
  const category = t.category ?? (t.status === 'failed' ? 'no category' : null);
  return ['imported', day, t.status, category].filter((x) => x).join(' ');
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
  if (t.category === null && t.status === 'failed') {
    notes.push('Hover recorded this transaction as failed with no category: no parser matched it, so the failure came from the session itself ' +
      '(an error screen, a timeout), which parsers do not decide. `expect: none` pins that no parser claims it; to classify it, add a failed parser for its last screen and set expect.');
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
  return scrubValue('value', value, { keep });
}
