// menuctl export: the live organization as config YAML (no secrets). Planning the export against
// the same organization shows no changes. Never overwrites a file unless --force.

import { existsSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLiveState } from '../api/read-live.js';
import { exportConfig, type ExportResult } from '../export/export-config.js';
import { checkOrganization, connect, type ConnectionFlags } from './connect.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { writeUserFile } from './write-file.js';
import { scopeOf } from '../record/record-file.js';
import { RECORD_FILE, recordedAppIds } from '../record/record.js';
import { loadRecord, type RecordFlags } from './record.js';
import { selectEnvironment, type EnvFlags } from './environment.js';
import { inert } from '../report/inert.js';

const SCHEMA = fileURLToPath(new URL('../../schemas/menuctl.schema.json', import.meta.url));

export interface ExportFlags extends ConnectionFlags, RecordFlags, EnvFlags {
  config?: string;
  out?: string;
  schema?: string;
  force?: boolean;
}

export async function runExport(flags: ExportFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const out = flags.out === undefined ? undefined : resolve(io.cwd, flags.out);
  const layout = out === undefined || ['.yaml', '.yml'].includes(extname(out)) ? 'file' : 'dir';
  const baseDir = out === undefined ? io.cwd : layout === 'file' ? dirname(out) : out;
  const schemaPath = flags.schema ?? relative(baseDir, SCHEMA).split('\\').join('/');

  const given = flags.config !== undefined;
  const environment = await selectEnvironment(given ? [flags.config!] : [], flags, io, { requireConfig: given });
  if (environment && !environment.def) {
    throw new CliError(`--env ${environment.name}: cannot read the config that defines it; run in its directory or pass --config PATH`);
  }
  const conn = connect(flags, io, environment);
  const { client, organizationGuard, concurrency, baseUrl } = conn;
  let result: ExportResult;
  try {
    await checkOrganization(client, organizationGuard, conn.environmentOrganization, conn.environment);
    const record = await loadRecord(recordFileFor(flags, baseDir, io.cwd), { client, baseUrl, io, environment: conn.environment });
    const scope = scopeOf(record);
    // Every active action's parsers: the export is the whole organization.
    const live = await readLiveState(client, {
      wantParsers: (a) => a.archived_at === null, concurrency, signal: ctx.signal,
      recordedAppIds: recordedAppIds(scope),
    });
    live.recorded = { file: record.shown, scope };
    result = exportConfig(live, { layout, schemaPath });
  } finally {
    await client.close();
  }
  for (const w of result.warnings) io.stderr.write(`Warning: ${inert(w)}\n`);

  if (out === undefined) {
    io.stdout.write(result.files.map((f) => f.content).join('---\n'));
    return EXIT.OK;
  }
  const targets = result.files.map((f) => ({ path: layout === 'file' ? out : join(out, f.path), content: f.content }));
  const existing = targets.filter((t) => existsSync(t.path)).map((t) => relative(io.cwd, t.path));
  if (existing.length > 0 && !flags.force) {
    throw new CliError(`not overwriting ${existing.join(', ')}: pass --force to replace, or choose another --out`);
  }
  for (const t of targets) await writeUserFile('--out', t.path, t.content);
  io.stdout.write(`Exported ${targets.length} file${targets.length === 1 ? '' : 's'} to ${relative(io.cwd, out) || '.'}.\n`);
  return EXIT.OK;
}

/**
 * --record, else the record beside the exported config (--out DIR, or the file's directory), else
 * the one in the working directory: exporting to a new directory from where the config and its
 * record live must still find the apps the spec's API cannot list.
 */
function recordFileFor(flags: ExportFlags, baseDir: string, cwd: string): string {
  if (flags.record !== undefined) return resolve(cwd, flags.record);
  const beside = join(baseDir, RECORD_FILE);
  const here = join(cwd, RECORD_FILE);
  return existsSync(beside) || !existsSync(here) ? beside : here;
}
