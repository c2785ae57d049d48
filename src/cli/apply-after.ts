// After apply's plan (or when it is empty): the engine completes the record and the secrets file
// (engine/after-apply.ts); this says what it completed.

import { relative } from 'node:path';
import type { Completion } from '../apply/complete-secrets.js';
import { secretsSection } from '../apply/secrets-file.js';
import type { ApplyResult } from '../apply/types.js';
import { completeAfterApply, type AfterInput } from '../engine/after-apply.js';
import type { Connection } from './connect.js';
import { refusalsAsCliErrors } from './engine-errors.js';
import type { Io } from './io.js';
import { inert } from '../text/inert.js';

/**
 * Completes the record and the secrets file, and says what was completed. Returns null when the
 * secrets file needed nothing.
 */
export async function afterApply(
  planned: AfterInput, secretsFile: string | undefined, conn: Connection, io: Io, o: { check: boolean; json: boolean; result?: ApplyResult },
): Promise<Completion | null> {
  const done = await refusalsAsCliErrors(completeAfterApply(planned, {
    client: conn.client, secretsFile, section: secretsSection(conn.environment), check: o.check, ...(o.result ? { result: o.result } : {}),
  }));
  if (done === null) return null;
  if (done.written.length > 0) {
    const n = done.written.length;
    // With --format json, stdout is the one result document (docs/apply.md): the note goes to stderr.
    (o.json ? io.stderr : io.stdout).write(`Completed the secrets file ${relative(io.cwd, secretsFile!) || secretsFile}: the token of ${n} app${n === 1 ? '' : 's'} it lacked (${done.written.join(', ')}).\n`);
  }
  for (const f of done.failed) io.stderr.write(`Error: ${inert(f.address)}: its secrets could not be completed: ${inert(f.message)}\n`);
  // Read back and found as the file has them: nothing was completed (the caller says "No changes").
  return done.written.length === 0 && done.failed.length === 0 ? null : done;
}
