// `menuctl test` on a config with environments: every environment's fixtures and sessions run
// (their parsers and `${VAR}` values may differ). A result every environment agrees on is shown
// once; one that differs is shown per environment, its address naming the environment.

import type { FixtureResult } from '../classify/run-fixtures.js';
import type { SessionResult } from '../sessions/run-sessions.js';
import { mergeAcrossEnvironments } from '../config/environments.js';

export interface EnvironmentRun {
  name: string;
  fixtures: readonly FixtureResult[];
  sessions: readonly SessionResult[];
}

/** What makes two results the same result (where, what, and the verdict). */
function identity(r: FixtureResult | SessionResult): string {
  const what = 'fixture' in r ? `fixture:${r.fixture.message}:${r.fixture.loc?.line ?? ''}` : `session:${r.session.name}`;
  return JSON.stringify([r.address, what, r.status, r.diff, r.reasons]);
}

function mergeResults<T extends FixtureResult | SessionResult>(runs: readonly { name: string; results: readonly T[] }[]): T[] {
  return mergeAcrossEnvironments(runs.map((r) => ({ name: r.name, items: r.results })), identity,
    (r, name) => ({ ...r, address: `${r.address} (environment ${name})` }));
}

export function mergeRuns(runs: readonly EnvironmentRun[]): { fixtures: FixtureResult[]; sessions: SessionResult[] } {
  return {
    fixtures: mergeResults(runs.map((r) => ({ name: r.name, results: r.fixtures }))),
    sessions: mergeResults(runs.map((r) => ({ name: r.name, results: r.sessions }))),
  };
}
