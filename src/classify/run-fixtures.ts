// Runs every action's `tests:` fixtures against that action's parsers, in the sandbox (one worker
// for all fixtures; a fixture over its time budget is an error and the worker is replaced).
import type { DesiredState, Fixture } from '../model/types.js';
import { actionAddress } from '../model/address.js';
import { collect, prepare } from './classify.js';
import { judge, type Verdict } from './judge.js';
import { RegexSandbox } from './sandbox.js';
import { automatonRejects } from './automaton-match.js';

export interface FixtureResult extends Verdict {
  action: string;
  address: string;
  fixture: Fixture;
}

export interface RunOptions {
  /** Budget per fixture, in ms. */
  timeoutMs: number;
  /** Several matching parsers make the fixture fail. */
  strict: boolean;
}

export const DEFAULT_TIMEOUT_MS = 1000;

export async function runFixtures(state: DesiredState, options: RunOptions): Promise<FixtureResult[]> {
  const sandbox = new RegexSandbox(options.timeoutMs);
  const results: FixtureResult[] = [];
  try {
    for (const action of state.actions) {
      for (const fixture of action.tests) {
        const verdict = await runOne(sandbox, fixture, action.parsers, options);
        results.push({ action: action.name, address: actionAddress(action.name), fixture, ...verdict });
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
  parsers: DesiredState['actions'][number]['parsers'],
  options: RunOptions,
): Promise<Verdict> {
  const message = { text: fixture.message, channel: fixture.channel, sender: fixture.sender };
  const prepared = prepare(message, parsers);
  // Parsers the automaton proves cannot match skip the backtracking engine (automaton-match.ts).
  const rejected = prepared.runnable.map((r) => automatonRejects(parsers[r.index]!.regex, message.text));
  const toRun = prepared.runnable.filter((_, i) => !rejected[i]);
  const batch = await sandbox.run(toRun.map((r) => ({ source: r.regex.source, text: message.text, groups: r.groups })));
  if (!batch.ok) {
    return {
      status: 'error',
      winner: null,
      matches: [],
      unevaluable: [],
      diff: [],
      warnings: [],
      reasons: [`timed out after ${options.timeoutMs} ms: catastrophic backtracking? (run menuctl validate for the regex warnings)`],
    };
  }
  let k = 0;
  const results = rejected.map((no) => (no ? null : batch.results[k++]!));
  return judge(fixture, collect(prepared, results), { strict: options.strict });
}
