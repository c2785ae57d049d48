// After apply's plan (or when it is empty): the record learns the ids of the config's apps the
// API showed, and the secrets file gets the token of every managed app it lacks (issue 9 item 4).

import { relative } from 'node:path';
import { completeSecrets, missingSecrets, type AppAt, type Completion, type ManagedApp } from '../apply/complete-secrets.js';
import { checkWritable } from '../fs/atomic-write.js';
import { secretsSection } from '../apply/secrets-file.js';
import type { ApplyResult } from '../apply/types.js';
import type { Comparison } from '../plan/compare.js';
import { RecordKeeper, scopeOf, type LoadedRecord } from '../state/record-file.js';
import type { Connection } from './connect.js';
import { CliError } from './exit.js';
import type { Io } from './io.js';
import { inert } from '../text/inert.js';

export interface AfterInput {
  record: LoadedRecord;
  /** Apps of the config matched to live ones. */
  apps: ManagedApp[];
  /** Actions of the config matched to live ones. */
  actions?: { address: string; id: string }[];
}

/**
 * After the plan (or when it is empty): the record learns the ids of the config's apps that
 * the API showed, and the secrets file gets the token of every managed app it lacks. Returns
 * null when the secrets file needed nothing.
 */
export async function afterApply(
  planned: AfterInput, secretsFile: string | undefined, conn: Connection, io: Io, o: { check: boolean; json: boolean; result?: ApplyResult },
): Promise<Completion | null> {
  const keeper = new RecordKeeper(planned.record);
  const section = secretsSection(conn.environment);
  const missing: AppAt[] = secretsFile === undefined ? [] : await missingOrFail(secretsFile, planned.apps, o.check, section);
  // An applied update or restore of an app may have made the API generate its webhook secret (a
  // URL set for the first time) or drop it (the URL removed): read those apps back too. By the
  // outcome's id: a saved plan carried out without the config PATH knows no managed apps.
  if (secretsFile !== undefined) {
    for (const outcome of o.result?.outcomes ?? []) {
      if (outcome.type !== 'app' || outcome.status !== 'applied' || outcome.op === 'create' || outcome.op === 'archive') continue;
      if (outcome.id === null || missing.some((a) => a.address === outcome.address)) continue;
      missing.push({ address: outcome.address, id: outcome.id });
    }
  }
  if (o.check) {
    if (missing.length > 0) await usable(secretsFile!);
    if (planned.apps.some((a) => scopeOf(planned.record)?.apps.get(a.address)?.id !== a.id)) await usable(keeper);
  }
  for (const app of planned.apps) await keeper.appIs(app.address, app.id);
  // A create left in flight (killed before its answer) whose action the API shows: it is that one,
  // with the details the record kept from the create.
  for (const a of planned.actions ?? []) {
    const line = scopeOf(planned.record)?.actions.get(a.address);
    if (line?.pending === 'create') await keeper.actionIs(a.address, a.id, { steps: line.steps, operator_ids: line.operator_ids });
  }
  if (missing.length === 0) return null;
  const done = await completeSecrets(conn.client, secretsFile!, missing, section);
  if (done.written.length > 0) {
    const n = done.written.length;
    // With --format json, stdout is the one result document (docs/apply.md): the note goes to stderr.
    (o.json ? io.stderr : io.stdout).write(`Completed the secrets file ${relative(io.cwd, secretsFile!) || secretsFile}: the token of ${n} app${n === 1 ? '' : 's'} it lacked (${done.written.join(', ')}).\n`);
  }
  for (const f of done.failed) io.stderr.write(`Error: ${inert(f.address)}: its secrets could not be completed: ${inert(f.message)}\n`);
  // Read back and found as the file has them: nothing was completed (the caller says "No changes").
  return done.written.length === 0 && done.failed.length === 0 ? null : done;
}

/** `before`: no write has been made yet, and the message says so. */
export function missingOrFail(file: string, apps: readonly ManagedApp[], before: boolean, section?: string): Promise<ManagedApp[]> {
  return missingSecrets(file, apps, section).catch((err: Error) => {
    throw new CliError(before ? `${err.message}. Nothing was changed.` : err.message, { code: 'secrets-file.unreadable' });
  });
}

/** Refuses, before any write, a secrets file or record that cannot be written. */
export async function usable(target: string | RecordKeeper): Promise<void> {
  try {
    await (typeof target === 'string' ? checkWritable(target, 'secrets file') : target.check());
  } catch (err) {
    throw new CliError(`${(err as Error).message}. Nothing was changed.`, { code: 'output.unwritable' });
  }
}

export function matchedActions(cmp: Comparison): { address: string; id: string }[] {
  return cmp.pairs.flatMap((p) => (p.type === 'action' && p.live !== null ? [{ address: p.address, id: p.live.id }] : []));
}

export function managedApps(cmp: Comparison): ManagedApp[] {
  return cmp.pairs.flatMap((p) =>
    p.type === 'app' && p.live !== null ? [{ address: p.address, id: p.live.id, webhook: (p.live.webhook_url ?? '') !== '' }] : [],
  );
}
