// menuctl test [PATH...]: run every action's `tests:` fixtures and `sessions:` with the device's regex
// semantics (Java, CASE_INSENSITIVE, whole-message match); exit 0 all pass, 1 any fails or cannot
// be judged (or, with --require-fixtures, a parser is exercised by none).
import { loadConfig } from '../config/load.js';
import { DEFAULT_TIMEOUT_MS, runFixtures } from '../classify/run-fixtures.js';
import { diagnosticsSummary, renderDiagnosticsJson, renderDiagnosticsText, renderGithubAnnotations } from '../report/diagnostics.js';
import { renderConfigErrorJunit, renderFixturesJson, renderFixturesJunit, renderFixturesText, runFails, type TestRun } from '../report/fixtures.js';
import { coverageOf } from '../sessions/coverage.js';
import { runSessions } from '../sessions/run-sessions.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit.js';
import { useColor } from './io.js';
import { mergeRuns } from './test-environments.js';

export interface TestOptions {
  format: 'text' | 'json' | 'junit';
  strict: boolean;
  timeout: number;
  transcript: boolean;
  transcriptFor?: string;
  requireFixtures: boolean;
  quiet: boolean;
}

/** `menuctl test`'s handler; test-command.ts has its flags. */
export async function runTest(paths: string[], options: TestOptions, ctx: CliContext): Promise<void> {
  const { io } = ctx;
  const loaded = await loadConfig(paths, { env: io.env, cwd: io.cwd });
  if (!loaded.state) {
    if (options.format === 'json') io.stdout.write(renderDiagnosticsJson(loaded.diagnostics));
    else if (options.format === 'junit') {
      const summary = `invalid config: ${diagnosticsSummary(loaded.diagnostics)}; fixtures not run`;
      io.stdout.write(renderConfigErrorJunit(renderDiagnosticsText(loaded.diagnostics, { sources: loaded.sources }), summary));
      io.stderr.write(`${summary} (see menuctl validate)\n`);
    } else {
      io.stderr.write(renderDiagnosticsText(loaded.diagnostics, { sources: loaded.sources, color: useColor(io, 'stderr') }));
      io.stderr.write(`invalid config: ${diagnosticsSummary(loaded.diagnostics)}; fixtures not run (see menuctl validate)\n`);
    }
    if (io.env.GITHUB_ACTIONS === 'true') io.stdout.write(renderGithubAnnotations(loaded.diagnostics));
    ctx.setExit(EXIT.ERROR);
    return;
  }
  const runOptions = { timeoutMs: options.timeout, strict: options.strict };
  // With environments, each one's state is run (validate-style: every environment is checked).
  const states = loaded.perEnvironment?.flatMap((e) => (e.state ? [{ name: e.name, state: e.state }] : [])) ?? [{ name: '', state: loaded.state }];
  const runs: (TestRun & { name: string })[] = [];
  for (const { name, state } of states) {
    const fixtures = await runFixtures(state, runOptions);
    const sessions = await runSessions(state, runOptions);
    runs.push({ name, fixtures, sessions, coverage: coverageOf(state, fixtures, sessions), requireFixtures: options.requireFixtures });
  }
  // Coverage shown is the first environment's; each environment's counts for the exit code.
  const run: TestRun = runs.length === 1 ? runs[0]! : { ...runs[0]!, ...mergeRuns(runs) };
  const render = {
    text: () => renderFixturesText(run, { color: useColor(io, 'stdout'), transcript: options.transcriptFor ?? options.transcript, quiet: options.quiet }),
    json: () => renderFixturesJson(run),
    junit: () => renderFixturesJunit(run),
  };
  io.stdout.write(render[options.format]());
  ctx.setExit(runs.some(runFails) ? EXIT.ERROR : EXIT.OK);
}
