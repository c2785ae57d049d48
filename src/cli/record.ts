// Where the applied-state record is (docs/planning.md, "The record"): `--record FILE`, else
// `menuctl.lock` beside the config (in the directory given, or the first file's directory;
// the working directory when no PATH is given), and which of its scopes is this API's.

import { statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Option } from 'commander';
import type { ApiClient } from '../api/types.js';
import { readRecordDocument, type LoadedRecord } from '../record/record-file.js';
import { RECORD_FILE, scopeKey } from '../record/record.js';
import { CliError } from './exit.js';
import { filePath } from './options.js';
import type { Io } from './io.js';

export interface RecordFlags {
  record?: string;
}

export function recordOption(): Option {
  return new Option('--record <file>', `the applied-state record: what the API cannot tell (default: ${RECORD_FILE} beside the config)`).argParser(filePath);
}

/** The record's path for these config PATHs. */
export function recordPath(paths: readonly string[], flags: RecordFlags, io: Io): string {
  if (flags.record !== undefined) return resolve(io.cwd, flags.record);
  if (paths.length === 0) return join(io.cwd, RECORD_FILE);
  const first = resolve(io.cwd, paths[0]!);
  let isDir = false;
  try {
    isDir = statSync(first).isDirectory();
  } catch {
    // the loader reports a missing path
  }
  return join(isDir ? first : dirname(first), RECORD_FILE);
}

/** Reads the record and picks this API's scope (by environment, else base URL and the credentials' organization). */
export async function loadRecord(file: string, o: { client: ApiClient; baseUrl: string; io: Io; environment?: string | null }): Promise<LoadedRecord> {
  const shown = relative(o.io.cwd, file) || file;
  let doc;
  try {
    doc = await readRecordDocument(file, shown);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  // Scoped by environment needs no organization lookup (a login) before the plan.
  const key = o.environment ? scopeKey(o.baseUrl, null, o.environment) : scopeKey(o.baseUrl, await o.client.organizationId());
  return { file, shown, doc, key };
}
