// Runs every action's `tests:` fixtures against that action's parsers, in the sandbox (one worker
// for all fixtures; a fixture over its time budget is an error and the worker is replaced).
import type { DesiredState, Fixture, DesiredParser } from '../model/types.js';
import { actionAddress } from '../model/address.js';
import { collect, prepare, type Classification, type Message } from './classify.js';
import { judge, type Verdict } from './judge.js';
import { explainMiss, missedParsers } from './explain.js';
import { RegexSandbox } from './sandbox.js';
import { automatonRejects } from './automaton-match.js';

export interface FixtureResult extends Verdict {
  action: string;
  address: string;
  fixture: Fixture;
  /** Why the expected parser missed (explain.ts), for failures only. */
  hints: string[];
}

export interface RunOptions {
  /** Budget per fixture, in ms. */
  timeoutMs: number;
  /** Several matching parsers make the fixture fail. */
  strict: boolean;
}

export const DEFAULT_TIMEOUT_MS = 1000;

/** What a batch gets before the automaton is asked (classifyInSandbox); a fraction of any real budget. */
const QUICK_BUDGET_MS = 50;

/** Per sandbox, the pattern sets that went over the quick budget once. */
const slowBatches = new WeakMap<RegexSandbox, Set<string>>();

export async function runFixtures(state: DesiredState, options: RunOptions): Promise<FixtureResult[]> {
  const sandbox = new RegexSandbox(options.timeoutMs);
  const results: FixtureResult[] = [];
  try {
    for (const action of state.actions) {
      for (const fixture of action.tests) {
        const verdict = await runOne(sandbox, fixture, action.parsers, options);
        const hints = verdict.status === 'failed' ? await explainFixture(sandbox, fixture, action.parsers, verdict) : [];
        results.push({ action: action.name, address: actionAddress(action.name), fixture, ...verdict, hints });
      }
    }
  } finally {
    await sandbox.close();
  }
  return results;
}

async function runOne(
  sandbox: RegexSandbox,
  fixture: Fixture,
  parsers: readonly DesiredParser[],
  options: RunOptions,
): Promise<Verdict> {
  const message = { text: fixture.message, channel: fixture.channel, sender: fixture.sender };
  const c = await classifyInSandbox(sandbox, message, parsers);
  return c ? judge(fixture, c, { strict: options.strict }) : timedOut(options.timeoutMs);
}

function explainFixture(sandbox: RegexSandbox, fixture: Fixture, parsers: readonly DesiredParser[], verdict: Verdict): Promise<string[]> {
  const message = { text: fixture.message, channel: fixture.channel, sender: fixture.sender };
  return explainMiss(sandbox, message, missedParsers(fixture.expect, parsers, verdict.winner), { crossChannel: true });
}

/**
 * The one classification step shared by fixtures and sessions (src/sessions): which parsers match
 * the message, run in the sandbox. null: over the time budget.
 */
export async function classifyInSandbox(sandbox: RegexSandbox, message: Message, parsers: readonly DesiredParser[]): Promise<Classification | null> {
  const prepared = prepare(message, parsers);
  const jobs = prepared.runnable.map((r) => ({ source: r.regex.source, text: message.text, groups: r.groups }));
  // The engine alone first, on a short budget: nearly every reply is decided in microseconds, and
  // building an automaton for every pattern of a large config cost more than all the rest of
  // `menuctl test`.
  // Patterns that once needed more stay on the automaton path: no second short attempt (and
  // worker restart) for every fixture of an action whose patterns are slow.
  const key = jobs.map((j) => j.source).join('\u0000');
  const slow = slowBatches.get(sandbox) ?? new Set<string>();
  slowBatches.set(sandbox, slow);
  if (!slow.has(key)) {
    const quick = await sandbox.run(jobs, Math.min(QUICK_BUDGET_MS, sandbox.budgetMs));
    if (quick.ok) return collect(prepared, quick.results);
    slow.add(key);
  }
  // Over it: the parsers the automaton proves cannot match skip the backtracking engine
  // (automaton-match.ts), and the rest run on the whole budget.
  const rejected = prepared.runnable.map((r) => automatonRejects(parsers[r.index]!.regex, message.text));
  const toRun = prepared.runnable.filter((_, i) => !rejected[i]);
  const batch = await sandbox.run(toRun.map((r) => ({ source: r.regex.source, text: message.text, groups: r.groups })));
  if (!batch.ok) return null;
  let k = 0;
  return collect(prepared, rejected.map((no) => (no ? null : batch.results[k++]!)));
}

/** The verdict of a fixture or session whose regexes ran out of time. */
export function timedOut(timeoutMs: number): Verdict {
  return {
    status: 'error',
    winner: null,
    matches: [],
    unevaluable: [],
    diff: [],
    warnings: [],
    reasons: [`timed out after ${timeoutMs} ms: catastrophic backtracking? (run menuctl validate for the regex warnings)`],
  };
}
