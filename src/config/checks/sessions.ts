// Session checks that need no screens run (docs/sessions.md "What validate checks"): names unique
// per action, expected categories that exist, a `press` without `expect` where sessions could check
// it, variables that steps use and no session gives (or sessions give and no step uses), SMS from a
// sender no parser reads, and USSD screens over the channel limit.

import { actionAddress } from '../../model/address.js';
import type { DesiredAction, Session, SourceLoc } from '../../model/types.js';
import { didYouMean } from '../../text/suggest.js';
import { locBelow, locOf, report, where, type CheckContext } from './context.js';

/** A USSD screen holds at most 182 characters (GSM 03.90, 7-bit alphabet). */
export const USSD_SCREEN_LIMIT = 182;

export function checkSessions(ctx: CheckContext): void {
  for (const f of ctx.files) {
    for (const a of f.actions) {
      const sessions = a.sessions ?? [];
      if (sessions.length === 0) continue;
      checkNames(ctx, a, sessions);
      checkExpectedCategory(ctx, a, sessions);
      checkPressExpect(ctx, a);
      checkVariables(ctx, a, sessions);
      checkSmsSenders(ctx, a, sessions);
      if (a.transport_type === 'ussd') checkScreenLength(ctx, a, sessions);
    }
  }
}

function checkNames(ctx: CheckContext, a: DesiredAction, sessions: Session[]): void {
  const seen = new Map<string, Session>();
  for (const s of sessions) {
    const prev = seen.get(s.name);
    if (!prev) { seen.set(s.name, s); continue; }
    report(ctx, { code: 'semantic.duplicate-session', loc: locOf(ctx, s, 'name'), address: actionAddress(a.name),
      message: `session ${JSON.stringify(s.name)} is defined twice in this action: here and at ${where(locOf(ctx, prev, 'name'))}. Rename one.` });
  }
}

function checkExpectedCategory(ctx: CheckContext, a: DesiredAction, sessions: Session[]): void {
  const categories = a.parsers.map((p) => p.category);
  for (const s of sessions) {
    if (s.expect === 'none' || s.expect.category === undefined || categories.includes(s.expect.category)) continue;
    report(ctx, { code: 'semantic.session-category', address: actionAddress(a.name),
      loc: locBelow(s, ['expect', 'category']),
      message: `session ${JSON.stringify(s.name)} expects category ${JSON.stringify(s.expect.category)}, which is not a parser category of this action.${didYouMean(s.expect.category, categories) || (categories.length ? ` Categories: ${categories.join(', ')}.` : ' The action has no parsers.')}` });
  }
}

/** Where step i of the action is written (steps are not remembered one by one). */
function stepLoc(a: DesiredAction, i: number): SourceLoc | undefined {
  return locBelow(a, ['steps', i]);
}

function checkPressExpect(ctx: CheckContext, a: DesiredAction): void {
  a.steps.forEach((step, i) => {
    if (step.kind !== 'press' || step.expect !== undefined) return;
    report(ctx, { severity: 'warning', code: 'semantic.press-without-expect', loc: stepLoc(a, i), address: actionAddress(a.name),
      message: `step ${i + 1} (press ${step.value}) has no \`expect:\`, so the sessions cannot tell when this option is renumbered. Add the option's text, e.g. \`expect: My Account\`.` });
  });
}

function checkVariables(ctx: CheckContext, a: DesiredAction, sessions: Session[]): void {
  const given = new Set(sessions.flatMap((s) => Object.keys(s.variables)));
  const used = new Set<string>();
  a.steps.forEach((step, i) => {
    if (step.kind !== 'variable' && step.kind !== 'select') return;
    used.add(step.name);
    if (given.has(step.name)) return;
    report(ctx, { severity: 'warning', code: 'semantic.session-variable', loc: stepLoc(a, i), address: actionAddress(a.name),
      message: `step ${i + 1} (${step.kind} ${step.name}) uses variable \`${step.name}\`, which no session of this action gives, so every session fails at this step. Add \`${step.name}:\` under a session's variables.${didYouMean(step.name, [...given])}` });
  });
  for (const s of sessions) {
    for (const name of Object.keys(s.variables)) {
      if (used.has(name)) continue;
      report(ctx, { severity: 'warning', code: 'semantic.session-variable', address: actionAddress(a.name),
        loc: locBelow(s, ['variables', name], { key: true }),
        message: `session ${JSON.stringify(s.name)} gives variable \`${name}\`, which no variable or select step of this action uses. Remove it, or correct its name.${didYouMean(name, [...used])}` });
    }
  }
}

/** An SMS from a sender no sms parser reads can never give the outcome: usually a typo in the sender. */
function checkSmsSenders(ctx: CheckContext, a: DesiredAction, sessions: Session[]): void {
  const senders = [...new Set(a.parsers.filter((p) => p.target_type === 'sms' && p.sender !== null).map((p) => p.sender!))];
  for (const s of sessions) {
    s.sms.forEach((m, i) => {
      if (senders.includes(m.sender)) return;
      const exact = senders.find((x) => x.toLowerCase() === m.sender.toLowerCase());
      const hint = exact ? ` Senders are compared exactly: did you mean ${JSON.stringify(exact)}?` : senders.length ? ` The sms parsers read ${senders.map((x) => JSON.stringify(x)).join(', ')}.` : ' The action has no sms parser.';
      report(ctx, { severity: 'warning', code: 'semantic.session-sms-sender', address: actionAddress(a.name),
        loc: locBelow(s, ['sms', i]),
        message: `SMS ${i + 1} of session ${JSON.stringify(s.name)} is from ${JSON.stringify(m.sender)}, which no sms parser of this action reads, so it can never be the outcome.${hint}` });
    });
  }
}

/** Characters as the phone shows them: code points (an emoji is one), a CRLF line break is one. */
export function screenLength(screen: string): number {
  return [...screen.replace(/\r\n/g, '\n')].length;
}

function checkScreenLength(ctx: CheckContext, a: DesiredAction, sessions: Session[]): void {
  for (const s of sessions) {
    s.screens.forEach((screen, i) => {
      const length = screenLength(screen);
      if (length <= USSD_SCREEN_LIMIT) return;
      report(ctx, { severity: 'warning', code: 'semantic.ussd-screen-length', loc: s.screenLocs?.[i] ?? s.loc, address: actionAddress(a.name),
        message: `screen ${i + 1} of session ${JSON.stringify(s.name)} has ${length} characters; a USSD screen holds at most ${USSD_SCREEN_LIMIT}, so the network never shows this. Record the screen as the device showed it.` });
    });
  }
}
