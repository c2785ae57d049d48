// menuctl diff-env A B [PATH...]: what differs between two environments' live resources, for
// the resources the config manages in both (src/plan/diff-env.ts). Reads only. Exit 0 the same,
// 2 they differ, 1 error.

import { loadDesired, reportDiagnostics } from './pipeline.js';
import { readLiveFor } from '../engine/read-live.js';
import { diffEnvironments, type EnvSide } from '../plan/diff-env.js';
import { renderEnvDiffJson, renderEnvDiffText } from '../report/env-diff.js';
import { checkOrganization, connect, DEFAULT_CONCURRENCY, type Connection } from './connect.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { useColor } from './io.js';
import { readRecord, type RecordFlags } from './record.js';
import { selectEnvironment, type SelectedEnvironment } from './environment.js';
import { inert } from '../text/inert.js';
import type { ConfigRead } from '../config/load.js';
import { recordedScope } from '../state/record-file.js';

export interface DiffEnvFlags extends RecordFlags {
  format: 'text' | 'json';
  concurrency?: number;
}

export async function runDiffEnv(a: string, b: string, paths: string[], flags: DiffEnvFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  if (a === b) throw new CliError(`diff-env needs two different environments (got ${a} twice)`, { code: 'diff-env.same-environment' });
  const selA = await selectEnvironment(paths, { env: a }, io);
  // The second read of the config: a stat per unchanged file.
  const selB = await selectEnvironment(paths, { env: b }, io, { earlier: selA.config });
  const [envA, envB] = [selA.environment, selB.environment];
  if (!envA || !envB) throw new CliError('diff-env compares environments, but the config defines none', { code: 'env.none-defined' });
  // MENUCTL_API_URL wins over an environment's api_url: both sides would then read one API, and
  // two environments with the same organization id would compare equal.
  if (io.env.MENUCTL_API_URL?.trim() && (envA.def?.api_url || envB.def?.api_url)) {
    throw new CliError('diff-env reads each environment from its own api_url, but MENUCTL_API_URL would send both to one API: unset it for diff-env', { code: 'diff-env.api-url-set' });
  }
  const [sideA, sideB] = [await side(envA, selA.config, paths, flags, ctx), await side(envB, selB.config, paths, flags, ctx)];
  for (const s of [sideA, sideB]) for (const w of s.live.warnings) io.stderr.write(`Warning (${s.name}): ${inert(w.message)}\n`);
  const { diff, diagnostics } = diffEnvironments(sideA, sideB);
  reportDiagnostics(diagnostics, io, { failure: 'cannot compare the environments' });
  io.stdout.write(flags.format === 'json' ? renderEnvDiffJson(diff) : renderEnvDiffText(diff, { color: useColor(io) }));
  return diff.same ? EXIT.OK : EXIT.CHANGES;
}

/** One environment's desired and live state, through its own URL, credentials and guard. */
async function side(env: SelectedEnvironment, config: ConfigRead, paths: string[], flags: DiffEnvFlags, ctx: CliContext): Promise<EnvSide> {
  const { io } = ctx;
  const { desired } = await loadDesired(paths, io, { environment: env.name, config });
  const conn: Connection = connect({ concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY }, io, env);
  try {
    const record = await readRecord(paths, flags, { client: conn.client, baseUrl: conn.baseUrl, io, environment: env.name });
    const live = await readLiveFor(desired, {
      client: conn.client, concurrency: conn.concurrency, signal: ctx.signal, record,
      // Each side has its own guard (its environment's organization_id); one MENUCTL_ORGANIZATION_ID cannot fit both.
      checkOrganization: (org) => checkOrganization(conn.client, null, org, env.name),
    });
    return { name: env.name, desired, live, recorded: recordedScope(record), variables: env.def?.variables ?? {} };
  } finally {
    await conn.client.close();
  }
}

