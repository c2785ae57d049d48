// menuctl analyze [PATH...]: offline proofs about the parsers (overlap, shadowed, dead, fixture
// overlap, uncovered); exit 1 when a finding is an error (with --strict: or a warning).
import { analyze } from '../analyze/analyze.js';
import { analysisFails, analysisGithubChunks, analysisJsonChunks, analysisTextChunks } from '../analyze/report.js';
import { loadConfig } from '../config/load.js';
import { diagnosticsSummary, renderDiagnosticsJson, renderDiagnosticsText, renderGithubAnnotations } from '../report/diagnostics.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit.js';
import { useColor, writeChunks } from './io.js';

export interface AnalyzeOptions { format: 'text' | 'json' | 'github'; strict: boolean }

/** `menuctl analyze`'s handler; analyze-command.ts has its flags. */
export async function runAnalyze(paths: string[], options: AnalyzeOptions, ctx: CliContext): Promise<void> {
  const { io } = ctx;
  const loaded = await loadConfig(paths, { env: io.env, cwd: io.cwd });
  if (!loaded.state) {
    if (options.format === 'json') io.stdout.write(renderDiagnosticsJson(loaded.diagnostics));
    else if (options.format === 'github') io.stdout.write(renderGithubAnnotations(loaded.diagnostics));
    else io.stderr.write(renderDiagnosticsText(loaded.diagnostics, { sources: loaded.sources, color: useColor(io, 'stderr') }));
    io.stderr.write(`invalid config: ${diagnosticsSummary(loaded.diagnostics)}; nothing analysed (see menuctl validate)\n`);
    ctx.setExit(EXIT.ERROR);
    return;
  }
  // With environments, every environment is analysed (as validate and test check each one):
  // a parser that only production has is still compared with the others.
  const result = await analyze(loaded.perEnvironment?.flatMap((e) => (e.state ? [e.state] : [])) ?? loaded.state);
  const render = {
    text: () => analysisTextChunks(result, { sources: loaded.sources, color: useColor(io, 'stdout') }),
    json: () => analysisJsonChunks(result),
    github: () => analysisGithubChunks(result),
  };
  await writeChunks(io.stdout, render[options.format]());
  ctx.setExit(analysisFails(result, options.strict) ? EXIT.ERROR : EXIT.OK);
}
