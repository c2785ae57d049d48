// menuctl replay [PATH...] --records FILE_OR_DIR... [--baseline PATH...] (CONTRACT.md "Replay",
// docs/replay.md): offline. Loads the config (and the baseline), reads the public ids the
// applied-state record knows, streams the records through the classifier and prints the report.

import { relative } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { DesiredState } from '../model/types.js';
import { diagnosticsSummary, renderDiagnosticsText } from '../report/diagnostics.js';
import { renderReplayJson, renderReplayMarkdown, renderReplayText } from '../report/replay.js';
import { ReplayClassifier } from '../replay/classifier.js';
import { indexActions } from '../replay/match.js';
import { publicIdsFromRecord, publicIdsOf } from '../replay/public-ids.js';
import { MAX_RECORD_DEPTH, readRecords, RecordReadError, recordFiles } from '../replay/read-records.js';
import { replay } from '../replay/replay.js';
import type { CliContext } from './context.js';
import { wantedEnvironment } from './environment.js';
import { CliError, EXIT } from './exit.js';
import { useColor } from './io.js';
import { openRecordStore, recordPath } from './record.js';

export interface ReplayFlags {
  records: string[];
  baseline?: string[];
  format: 'text' | 'json' | 'markdown';
  detailedExitcode?: boolean;
  record?: string;
  state?: string;
  env?: string;
  timeout: number;
  maxRecordSize: number;
}

export async function runReplay(paths: string[], flags: ReplayFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const head = await load(paths, flags, ctx, '');
  const baseline = flags.baseline ? await load(flags.baseline, flags, ctx, 'baseline ') : null;
  let ids: Map<string, string>;
  try {
    if (flags.state !== undefined || (flags.record === undefined && io.env.MENUCTL_STATE?.trim())) {
      // The record in a backend (git, PostgreSQL...): read once, offline from the API.
      const store = await openRecordStore(paths, flags, io);
      try {
        ids = publicIdsOf(await store.load());
      } finally {
        await store.close();
      }
    } else {
      const lock = recordPath(paths, flags, io);
      ids = await publicIdsFromRecord(lock, relative(io.cwd, lock) || lock, flags.record !== undefined);
    }
  } catch (err) {
    throw err instanceof CliError ? err : new CliError((err as Error).message, { code: 'record.unreadable' });
  }
  const classifier = new ReplayClassifier(flags.timeout);
  try {
    const files = await recordFiles(flags.records, io.cwd);
    const report = await replay({
      records: readRecords(files, io.cwd, { maxBytes: flags.maxRecordSize, maxDepth: MAX_RECORD_DEPTH }),
      head: indexActions(head, ids),
      baseline: baseline ? indexActions(baseline, ids) : null,
      classifier,
    });
    const render = { text: () => renderReplayText(report), json: () => renderReplayJson(report), markdown: () => renderReplayMarkdown(report) };
    io.stdout.write(render[flags.format]());
    return flags.detailedExitcode && report.summary.changed > 0 ? EXIT.CHANGES : EXIT.OK;
  } catch (err) {
    if (err instanceof RecordReadError) throw new CliError(`${err.message}. Nothing was compared.`, { code: 'replay.records-unreadable' });
    throw err;
  } finally {
    await classifier.close();
  }
}

async function load(paths: string[], flags: ReplayFlags, ctx: CliContext, what: string): Promise<DesiredState> {
  const { io } = ctx;
  const environment = wantedEnvironment(flags, io);
  const loaded = await loadConfig(paths, { env: io.env, cwd: io.cwd, ...(environment !== undefined ? { environment } : {}) });
  if (loaded.state) return loaded.state;
  io.stderr.write(renderDiagnosticsText(loaded.diagnostics, { sources: loaded.sources, color: useColor(io, 'stderr') }));
  throw new CliError(`invalid ${what}config: ${diagnosticsSummary(loaded.diagnostics)}; nothing replayed (see menuctl validate)`, { code: 'config.invalid' });
}
