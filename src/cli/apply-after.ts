// After apply's plan (or when it is empty): the engine completes the record and the secrets file
// (engine/after-apply.ts); this says what it completed.

import { relative } from 'node:path';
import type { Completion } from '../apply/complete-secrets.js';
import type { Io } from './io.js';
import { inert } from '../text/inert.js';

/**
 * Says what the engine completed. Returns null when the secrets file needed nothing (the caller
 * says "No changes").
 */
export function reportCompletion(done: Completion | null, secretsFile: string | undefined, io: Io, o: { json: boolean }): Completion | null {
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
