// A session as a dialogue (menuctl test --transcript): → what the device sent, ← what the network
// showed, = the outcome. Plain lines that read the same in a terminal and a CI log; colour only
// when the caller asks for it (NO_COLOR respected by the CLI). Pure.

import type { ParserMatch } from '../classify/classify.js';
import type { SessionResult } from '../sessions/run-sessions.js';
import { MASKED_PIN, type StepRecord } from '../sessions/walk.js';
import { style, type Style } from './style.js';

export function outcomeText(m: ParserMatch | null): string {
  if (!m) return 'none (no parser matches)';
  const vars = Object.entries(m.variables).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return [`${m.category} (${m.status})`, ...vars].join(' ');
}

/** By the step's kind, not the value: a variable may be empty or look like the PIN mask. */
function sent(r: StepRecord): string {
  if (r.response === null) return '(nothing: the step could not be answered)';
  switch (r.step.kind) {
    case 'ok': return '(OK)';
    case 'pin': return `${MASKED_PIN} (PIN)`;
    case 'select': return `${r.response} (select ${r.step.name})`;
    case 'variable':
      if (r.response === '') return `"" (variable ${r.step.name})`;
      return r.response === MASKED_PIN ? `${MASKED_PIN} (variable ${r.step.name})` : r.response;
    case 'press': return r.response;
  }
}

/**
 * Lines of one screen or message, the first after `mark`, the rest aligned under it. `paint`
 * colours the mark; the padding is measured on the plain mark (escape codes take no room).
 */
function block(indent: string, mark: string, text: string, paint: (s: string) => string): string[] {
  const [first, ...rest] = text.split(/\r\n|\r|\n/).map(visible);
  const shown = visible(mark);
  const pad = ' '.repeat([...shown].length + 1);
  return [`${indent}${paint(shown)} ${first ?? ''}`, ...rest.map((l) => `${indent}${pad}${l}`)];
}

/**
 * Control characters as escapes (ESC as \u001b): a screen recorded in the field must not clear the
 * terminal, recolour the report or retitle the window. Tabs stay.
 */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The dialogue of one session, each line prefixed by `indent`. */
export function renderTranscript(r: SessionResult, options: { color?: boolean; indent?: string } = {}): string[] {
  const s: Style = style(options.color ?? false);
  const indent = options.indent ?? '';
  const lines: string[] = [`${indent}${s.cyan('→')} ${visible(r.dial)}`];
  const screens = r.session.screens;
  r.walk.steps.forEach((step, i) => {
    lines.push(...block(indent, '←', screens[i] ?? '', s.dim));
    lines.push(`${indent}${s.cyan('→')} ${visible(sent(step))}`);
    if (!step.ok) lines.push(`${indent}  ${s.red('✗')} ${visible(step.problem ?? '')}`);
  });
  const [reply, ...sms] = r.messages;
  if (reply && reply.channel === 'ussd') {
    lines.push(...block(indent, '←', reply.text, s.dim));
    lines.push(`${indent}  = ${outcomeText(reply.winner)}`);
  }
  for (const m of reply?.channel === 'sms' ? r.messages : sms) {
    lines.push(...block(indent, `← sms from ${m.sender}:`, m.text, s.dim));
    lines.push(`${indent}  = ${outcomeText(m.winner)}`);
  }
  const walked = r.walk.steps.length;
  if (walked < r.session.screens.length - 1 && r.walk.steps.every((x) => x.ok)) {
    const extra = r.session.screens.slice(walked + 1);
    lines.push(`${indent}  ${s.red('✗')} ${extra.length} screen(s) more than the steps answer:`);
    for (const screen of extra) lines.push(...block(indent, '←', screen, s.dim));
  } else if (r.walk.problems.length > 0) {
    lines.push(`${indent}  ${s.red('✗')} the network ended the session here`);
  }
  if (r.messages.length > 0) lines.push(`${indent}${s.bold('=')} ${s.bold(`outcome: ${outcomeText(r.winner)}`)}`);
  return lines;
}
