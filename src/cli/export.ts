// menuctl export: the live organization as config YAML (no secrets). Planning the export against
// the same organization shows no changes. Never overwrites a file unless --force.

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportResult } from '../export/export-config.js';
import { adoptExported, exportLive } from '../engine/export.js';
import { checkOrganization, connect, type ConnectionFlags } from './connect.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { writeUserFile } from './write-file.js';
import type { LoadedRecord } from '../state/record-file.js';
import { RECORD_FILE } from '../record/record.js';
import { loadRecord, openRecordStore, type RecordFlags } from './record.js';
import { selectEnvironment, type EnvFlags } from './environment.js';
import { inert } from '../text/inert.js';

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
  const { environment } = await selectEnvironment(given ? [flags.config!] : [], flags, io, { requireConfig: given });
  if (environment && !environment.def) {
    throw new CliError(`--env ${environment.name}: cannot read the config that defines it; run in its directory or pass --config PATH`, { code: 'config.unreadable' });
  }
  const conn = connect(flags, io, environment);
  const { client, organizationGuard, concurrency, baseUrl } = conn;
  let result: ExportResult;
  let record: LoadedRecord | undefined;
  let closeStore = async (): Promise<void> => {};
  try {
    await checkOrganization(client, organizationGuard, conn.environmentOrganization, conn.environment);
    const recordFile = recordFileFor(flags, baseDir, io.cwd);
    // The exported files go to --out, and the record beside them: its directory is made now, so it can be locked.
    if (out !== undefined && flags.record === undefined) await mkdir(dirname(recordFile), { recursive: true });
    const store = await openRecordStore([], flags, io, recordFile);
    closeStore = () => store.close();
    // Exporting to files adopts what they declare: the record is written, so its scope is locked.
    const lock = out !== undefined ? { command: 'export', timeoutMs: flags.lockTimeout ?? 0 } : undefined;
    record = await loadRecord(store, { client, baseUrl, io, environment: conn.environment, ...(lock ? { lock } : {}) });
    result = await exportLive(client, record, { layout, schemaPath, concurrency, signal: ctx.signal });
  } catch (err) {
    await closeStore();
    await client.close();
    throw err;
  }
  await client.close();
  for (const w of result.warnings) io.stderr.write(`Warning: ${inert(w)}\n`);

  try {
    if (out === undefined) {
      io.stdout.write(result.files.map((f) => f.content).join('---\n'));
      return EXIT.OK;
    }
    const targets = result.files.map((f) => ({ path: layout === 'file' ? out : join(out, f.path), content: f.content }));
    const existing = targets.filter((t) => existsSync(t.path)).map((t) => relative(io.cwd, t.path));
    if (existing.length > 0 && !flags.force) {
      throw new CliError(`not overwriting ${existing.join(', ')}: pass --force to replace, or choose another --out`, { code: 'export.would-overwrite' });
    }
    for (const t of targets) await writeUserFile('--out', t.path, t.content, io.secrets);
    io.stdout.write(`Exported ${targets.length} file${targets.length === 1 ? '' : 's'} to ${relative(io.cwd, out) || '.'}.\n`);
    const adopted = await adoptExported(record!, result.exported);
    if (adopted > 0) {
      io.stdout.write(`Recorded ${adopted} exported resource${adopted === 1 ? '' : 's'} as managed in ${record!.shown}; the step details the API does not show are recorded as unknown, never assumed.\n`);
    }
    return EXIT.OK;
  } finally {
    await closeStore();
  }
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
