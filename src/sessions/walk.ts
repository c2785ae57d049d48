// Walks an action's steps against a session's recorded screens (docs/sessions.md). Pure.
// Step i answers screens[i] (screens[0] answers the dialled code); the screen after the last step
// is the reply. The walk stops at the first step that does not fit its screen.

import type { Session, SourceLoc, Step } from '../model/types.js';
import { menuOptions, sameOption, screenContains, screenProse, selectOption, type MenuOption } from './options.js';

/** What the device sends for a PIN in every transcript and report: never a real PIN. */
export const MASKED_PIN = '****';

export interface StepRecord {
  /** 1-based, as people count steps. */
  number: number;
  step: Step;
  /** The screen this step answers. */
  screen: string;
  /** What the device sends ("" for OK, MASKED_PIN for a PIN); null when it could not decide. */
  response: string | null;
  ok: boolean;
  problem: string | null;
  /** Where the screen is written in the config. */
  loc?: SourceLoc;
}

export interface Walk {
  steps: StepRecord[];
  /** The screen classified as the reply (the last one shown when the network ended early); null when a step failed. */
  reply: string | null;
  /** Problems of the session as a whole (too few or too many screens). */
  problems: string[];
}

export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'press': return `press ${step.value}${step.expect !== undefined ? ` (${JSON.stringify(step.expect)})` : ''}`;
    case 'variable': return `variable ${step.name}`;
    case 'select': return `select ${step.name}`;
    case 'pin': return 'pin';
    case 'ok': return 'ok';
  }
}

const quote = (s: string) => JSON.stringify(s);
const listOptions = (options: readonly MenuOption[]) => options.map((o) => `${o.number}. ${o.text}`).join('; ');

export function walkSession(steps: readonly Step[], session: Session): Walk {
  const { screens } = session;
  const records: StepRecord[] = [];
  const problems: string[] = [];
  const expected = steps.length + 1;
  // The network ended the session before the last step: the steps before the final screen are
  // walked; the step that got no screen to answer is the one named.
  const answered = screens.length < expected ? Math.max(0, screens.length - 1) : steps.length;
  for (let i = 0; i < answered; i++) {
    const record = answerStep(i, steps[i]!, screens[i]!, session);
    records.push(record);
    if (!record.ok) return { steps: records, reply: null, problems };
  }
  if (screens.length < expected) {
    const last = screens.length > 0 ? `; its last screen was ${quote(oneLine(screens[screens.length - 1]!))}` : '';
    const step = steps[answered];
    problems.push(step
      ? `the network ended the session early: ${screens.length} screen(s) for ${steps.length} step(s), so step ${answered + 1} (${describeStep(step)}) had nothing to answer${last}. A complete session has ${expected} screens: one per step plus the reply.`
      : `no screens: record the screen that answers the dialled code.`);
    return { steps: records, reply: screens.length > 0 ? screens[screens.length - 1]! : null, problems };
  }
  if (screens.length > expected) {
    problems.push(`${screens.length - expected} screen(s) more than the steps answer: the action has ${steps.length} step(s), so the session has ${expected} screens (one per step plus the reply); screen ${expected + 1} ${quote(oneLine(screens[expected]!))} is answered by no step. Add the missing step to the action or remove the extra screens.`);
  }
  return { steps: records, reply: screens[steps.length]!, problems };
}

export function oneLine(text: string, max = 70): string {
  const flat = text.replace(/\s*(\r\n|\r|\n)\s*/g, ' / ');
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

function answerStep(i: number, step: Step, screen: string, session: Session): StepRecord {
  const base = { number: i + 1, step, screen, ...(session.screenLocs?.[i] ? { loc: session.screenLocs[i] } : {}) };
  const fail = (problem: string, response: string | null = null): StepRecord => ({ ...base, response, ok: false, problem });
  const pass = (response: string): StepRecord => ({ ...base, response, ok: true, problem: null });
  switch (step.kind) {
    case 'press': {
      const problem = pressProblem(step.value, step.expect, screen);
      return problem ? fail(problem, step.value) : pass(step.value);
    }
    case 'variable': {
      const value = valueOf(session, step.name);
      return value === undefined ? fail(missing(step.name)) : pass(value);
    }
    case 'select': {
      const value = valueOf(session, step.name);
      if (value === undefined) return fail(missing(step.name));
      const options = menuOptions(screen);
      const r = selectOption(options, value);
      if (r.ok) return pass(r.option.number);
      if (r.reason === 'no-options') return fail(`select ${step.name}: the screen lists no numbered options to choose ${quote(value)} from.`);
      if (r.reason === 'no-match') return fail(`select ${step.name}: no option contains ${quote(value)} (options: ${listOptions(options)}). Correct the session's value or the screen.`);
      return fail(`select ${step.name}: ${quote(value)} is ambiguous, ${r.candidates.length} options contain it (${listOptions(r.candidates)}). Use the option's whole text.`);
    }
    case 'pin': return pass(MASKED_PIN);
    case 'ok': return pass('');
  }
}

function valueOf(session: Session, name: string): string | undefined {
  return Object.hasOwn(session.variables, name) ? session.variables[name] : undefined;
}

function missing(name: string): string {
  return `the session gives no value for variable \`${name}\`: add \`${name}: ...\` under its variables.`;
}

/**
 * press N: the screen must contain `expect` (case-insensitive); when it lists numbered options, N
 * must be one of them, and when `expect` is an option's text, that option must be N (the menu was
 * renumbered otherwise, the failure this check exists for). When `expect` is also in the screen's
 * prose (its title or prompt), it names the screen, not an option: only the contract's two checks apply.
 */
function pressProblem(value: string, expect: string | undefined, screen: string): string | null {
  const options = menuOptions(screen);
  const own = options.find((o) => sameOption(o.number, value));
  if (expect !== undefined) {
    const holder = options.find((o) => screenContains(o.text, expect));
    if (!screenContains(screen, expect)) {
      return `expected ${quote(expect)} on the screen, but it shows ${quote(oneLine(screen))}${own ? `; option ${value} is now ${quote(own.text)}` : ''}.`;
    }
    const namesScreen = screenContains(screenProse(screen), expect);
    if (holder && !namesScreen && !sameOption(holder.number, value) && !(own && screenContains(own.text, expect))) {
      return `${quote(expect)} is option ${holder.number} on this screen, not ${value}${own ? ` (${value} is ${quote(own.text)})` : ''}: the menu was renumbered; change the step to \`press: ${holder.number}\`.`;
    }
  }
  if (options.length > 0 && !own) {
    return `option ${value} is not on the screen (options: ${listOptions(options)}).`;
  }
  return null;
}
