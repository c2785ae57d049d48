// Runs every action's `sessions:` (docs/sessions.md): walk the steps against the screens, then
// classify the reply and each SMS with the same engine as the parser fixtures
// (classify/run-fixtures classifyInSandbox, classify/judge), in one regex sandbox.

import { actionAddress } from '../model/address.js';
import type { DesiredAction, DesiredState, Session } from '../model/types.js';
import type { Classification, Message, ParserMatch, Unevaluable } from '../classify/classify.js';
import { judge, type Verdict } from '../classify/judge.js';
import { classifyInSandbox, timedOut, type RunOptions } from '../classify/run-fixtures.js';
import { RegexSandbox } from '../classify/sandbox.js';
import { oneLine, walkSession, type Walk } from './walk.js';
import { explainMiss, missedParsers } from '../classify/explain.js';

/** One message of the session that parsers saw, and the parser that won it. */
export interface ClassifiedMessage extends Message {
  winner: ParserMatch | null;
}

export interface SessionResult extends Verdict {
  action: string;
  address: string;
  session: Session;
  /** What was dialled (the action's root code). */
  dial: string;
  walk: Walk;
  /** The reply, then each SMS, as classified; empty when a step failed. */
  messages: ClassifiedMessage[];
  /** Why the expected parser missed the reply or an SMS (classify/explain.ts). */
  hints: string[];
}

export async function runSessions(state: DesiredState, options: RunOptions): Promise<SessionResult[]> {
  const sandbox = new RegexSandbox(options.timeoutMs);
  const results: SessionResult[] = [];
  try {
    for (const action of state.actions) {
      for (const session of action.sessions ?? []) results.push(await runSession(sandbox, action, session, options));
    }
  } finally {
    await sandbox.close();
  }
  return results;
}

async function runSession(sandbox: RegexSandbox, action: DesiredAction, session: Session, options: RunOptions): Promise<SessionResult> {
  const walk = walkSession(action.steps, session);
  const base = { action: action.name, address: actionAddress(action.name), session, dial: action.root_code, walk };
  const failedStep = walk.steps.find((s) => !s.ok);
  if (failedStep) {
    return { ...base, messages: [], hints: [], ...failed([`step ${failedStep.number}: ${failedStep.problem}`]) };
  }
  const messages: Message[] = [
    ...(walk.reply !== null ? [{ text: walk.reply, channel: 'ussd' as const }] : []),
    ...session.sms.map((m) => ({ text: m.message, channel: 'sms' as const, sender: m.sender })),
  ];
  const classified: Classification[] = [];
  for (const m of messages) {
    const c = await classifyInSandbox(sandbox, m, action.parsers);
    if (!c) return { ...base, messages: [], hints: [], ...timedOut(options.timeoutMs) };
    classified.push(c);
  }
  const verdict = judge(session, outcomeOf(classified), { strict: options.strict });
  if (verdict.winner === null && session.expect !== 'none') verdict.reasons.push(unclassified(messages));
  const withMessages = messages.map((m, i) => ({ ...m, winner: classified[i]!.matches[0] ?? null }));
  const hints = verdict.status === 'failed' ? await explainSession(sandbox, action, session, messages, verdict) : [];
  if (walk.problems.length === 0) return { ...base, messages: withMessages, hints, ...verdict };
  // Too few or too many screens fail the session whatever was classified; the outcome still shows.
  return { ...base, messages: withMessages, hints, ...verdict, status: verdict.status === 'error' ? 'error' : 'failed', reasons: [...walk.problems, ...verdict.reasons] };
}

/** Near-misses of the expected parser on each message it could have read. */
async function explainSession(
  sandbox: RegexSandbox, action: DesiredAction, session: Session, messages: readonly Message[], verdict: Verdict,
): Promise<string[]> {
  const wanted = missedParsers(session.expect, action.parsers, verdict.winner);
  if (wanted.length === 0) return [];
  const hints: string[] = [];
  for (const m of messages) hints.push(...await explainMiss(sandbox, m, wanted, { crossChannel: false }));
  return [...new Set(hints)];
}

function unclassified(messages: readonly Message[]): string {
  const [reply, ...sms] = messages;
  const what = reply ? `the reply ${JSON.stringify(oneLine(reply.text))}` : 'the session';
  return `no parser classifies ${what}${sms.length > 0 ? ` or any of its ${sms.length} SMS` : ''}.`;
}

function failed(reasons: string[]): Verdict {
  return { status: 'failed', winner: null, matches: [], unevaluable: [], diff: [], warnings: [], reasons };
}

/**
 * The outcome is the last message any parser matched. A parser that could not be evaluated blocks
 * when it could have changed that: on the deciding message before its winner (judge's rule), or on
 * any later message (index -1 places it before every winner).
 */
export function outcomeOf(classified: readonly Classification[]): Classification {
  let last = -1;
  classified.forEach((c, i) => { if (c.matches.length > 0) last = i; });
  const later: Unevaluable[] = classified.slice(last + 1).flatMap((c) => c.unevaluable.map((u) => ({ ...u, index: -1 })));
  if (last < 0) return { matches: [], unevaluable: later };
  const deciding = classified[last]!;
  return { matches: deciding.matches, unevaluable: [...deciding.unevaluable, ...later] };
}
