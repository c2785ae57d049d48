// After apply's plan (or when it is empty): the record learns the ids of the config's apps the
// API showed, and the secrets file gets the token of every managed app it lacks.
// Returns what was completed; the caller says it.

import { kindOf } from '../model/kinds/index.js';
import { completeSecrets, missingSecrets, type AppAt, type Completion, type ManagedApp } from '../apply/complete-secrets.js';
import type { ApiClient } from '../api/types.js';
import { checkWritable } from '../fs/atomic-write.js';
import type { ApplyResult } from '../apply/types.js';
import { RecordKeeper, scopeOf, type LoadedRecord } from '../state/record-file.js';
import { EngineRefusal } from './errors.js';

export interface AfterInput {
  record: LoadedRecord;
  /** Apps of the config matched to live ones. */
  apps: ManagedApp[];
  /** Actions of the config matched to live ones. */
  actions?: { address: string; id: string }[];
}

export interface AfterOptions {
  client: ApiClient;
  secretsFile: string | undefined;
  /** The secrets file's section for this environment (apply/secrets-file.ts secretsSection). */
  section: string | undefined;
  /** Before any write (an empty plan): refuse a secrets file or record that cannot be written. */
  check: boolean;
  /** What apply did, when it ran. */
  result?: ApplyResult;
}

/**
 * After the plan (or when it is empty): the record learns the ids of the config's apps that
 * the API showed, and the secrets file gets the token of every managed app it lacks. Returns
 * null when the secrets file lacked nothing.
 */
export async function completeAfterApply(planned: AfterInput, o: AfterOptions): Promise<Completion | null> {
  const { secretsFile, section } = o;
  const keeper = new RecordKeeper(planned.record);
  const missing: AppAt[] = secretsFile === undefined ? [] : await missingOrFail(secretsFile, planned.apps, o.check, section);
  // An applied update or restore of an app may have made the API generate its webhook secret (a
  // URL set for the first time) or drop it (the URL removed): read those apps back too. By the
  // outcome's id: a saved plan carried out without the config PATH knows no managed apps.
  if (secretsFile !== undefined) {
    for (const outcome of o.result?.outcomes ?? []) {
      if (!kindOf(outcome.type).hasSecrets || outcome.status !== 'applied' || outcome.op === 'create' || outcome.op === 'archive') continue;
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
  return completeSecrets(o.client, secretsFile!, missing, section);
}

/** `before`: no write has been made yet, and the message says so. */
export function missingOrFail(file: string, apps: readonly ManagedApp[], before: boolean, section?: string): Promise<ManagedApp[]> {
  return missingSecrets(file, apps, section).catch((err: Error) => {
    throw new EngineRefusal('secrets-file-unreadable', before ? `${err.message}. Nothing was changed.` : err.message);
  });
}

/** Refuses, before any write, a secrets file or record that cannot be written. */
export async function usable(target: string | RecordKeeper): Promise<void> {
  try {
    await (typeof target === 'string' ? checkWritable(target, 'secrets file') : target.check());
  } catch (err) {
    throw new EngineRefusal('output-unwritable', `${(err as Error).message}. Nothing was changed.`);
  }
}
