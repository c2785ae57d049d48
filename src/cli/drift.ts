// menuctl drift: what changed in the live API outside the config. Exit 0 in sync, 2 drift.

import { readProgress } from './progress.js';
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadDesired, reportDiagnostics } from './pipeline.js';
import { driftOf } from '../engine/plan.js';
import type { DriftResult } from '../plan/build-drift.js';
import type { Drift } from '../plan/drift-types.js';
import { renderDriftJson } from '../report/drift-json.js';
import { renderDriftJunit } from '../report/drift-junit.js';
import { renderDriftMarkdown } from '../report/drift-markdown.js';
import { renderDriftText } from '../report/drift-text.js';
import { checkOrganization, connect, type ConnectionFlags } from './connect.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit.js';
import { useColor, type Io } from './io.js';
import { readRecord, type RecordFlags } from './record.js';
import { writeUserFile } from './write-file.js';
import { selectEnvironment, type EnvFlags } from './environment.js';

type Format = 'text' | 'json' | 'markdown' | 'junit';

export interface DriftFlags extends ConnectionFlags, RecordFlags, EnvFlags {
  format: Format;
  reportFile?: string;
  target: string[];
}

export async function runDrift(paths: string[], flags: DriftFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const { environment, config } = await selectEnvironment(paths, flags, io);
  const { desired, sources } = await loadDesired(paths, io, { environment: environment?.name, config });
  const { client, organizationGuard, concurrency, baseUrl } = connect(flags, io, environment);
  try {
    const record = await readRecord(paths, flags, { client, baseUrl, io, environment: environment?.name ?? null });
    const reading = readProgress({ stream: io.stderr, tty: Boolean(io.stderr.isTTY) });
    const { drift, checked, diagnostics } = await driftOf(desired, {
      client, concurrency, signal: ctx.signal, record, onRead: reading.onRead, targets: flags.target,
      checkOrganization: (org) => checkOrganization(client, organizationGuard, org, environment?.name ?? null),
    }).finally(reading.finish);
    reportDiagnostics(diagnostics, io, { sources, failure: 'cannot compare the config with the live API' });
    if (flags.reportFile) {
      await writeUserFile('--report-file', resolve(io.cwd, flags.reportFile), render(drift, flags.format, io, checked), io.secrets);
      io.stdout.write(render(drift, 'text', io));
      io.stdout.write(`Wrote the ${flags.format} report to ${flags.reportFile}.\n`);
    } else {
      io.stdout.write(render(drift, flags.format, io, checked));
    }
    // GitHub Actions shows this file on the run's summary page.
    const summary = io.env.GITHUB_STEP_SUMMARY;
    if (summary) await appendFile(summary, (io.secrets?.mask(renderDriftMarkdown(drift)) ?? renderDriftMarkdown(drift)) + '\n');
    return drift.in_sync ? EXIT.OK : EXIT.CHANGES;
  } finally {
    await client.close();
  }
}

function render(drift: Drift, format: Format, io: Io, checked: DriftResult['checked'] = []): string {
  switch (format) {
    case 'json': return renderDriftJson(drift);
    case 'markdown': return renderDriftMarkdown(drift);
    case 'junit': return renderDriftJunit(drift, { checked });
    case 'text': return renderDriftText(drift, { color: useColor(io), width: io.stdout.columns ?? 100 });
  }
}
