// Secrets follow the app (issue 9 item 4): every managed app's token and webhook secret end up
// in the secrets file, also for an app whose create answer was lost or whose secrets write
// failed. The API returns them on GET /api/apps/{id} (spec: App, attributes.token), so apply
// reads back those the file lacks, whether or not the plan has changes.

import { ResponseShapeError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import { kindOf } from '../model/kinds/index.js';
import type { LiveApp } from '../model/types.js';
import { readSecretsSection, SecretsWriter } from './secrets-file.js';

/** The address of a live app, by its identity (package_name). */
export function appAddressOf(app: LiveApp): string {
  const kind = kindOf('app');
  return kind.addressOf(kind.key(app));
}

/** An app's address and live id: what reading its secrets back needs. */
export interface AppAt {
  address: string;
  id: string;
}

export interface ManagedApp extends AppAt {
  /** The app has a webhook URL live, so the API holds a webhook secret for it (spec: App). */
  webhook: boolean;
}

/**
 * The managed apps whose entry in the file is missing, names another id, or disagrees with the
 * live app about having a webhook secret (the API generates one when a URL is first set, and
 * drops it when the URL is removed: docs/api.md "Apps").
 */
export async function missingSecrets(file: string, apps: readonly ManagedApp[], section?: string): Promise<ManagedApp[]> {
  const doc = await readSecretsSection(file, section);
  return apps.filter((a) => {
    const entry = doc[a.address];
    return entry?.id !== a.id || typeof entry.token !== 'string' || (typeof entry.webhook_secret === 'string') !== a.webhook;
  });
}

export interface Completion {
  written: string[];
  /** Address and why, never a secret. */
  failed: { address: string; message: string }[];
}

export async function completeSecrets(client: ApiClient, file: string, apps: readonly AppAt[], section?: string): Promise<Completion> {
  const writer = new SecretsWriter(file, section);
  const out: Completion = { written: [], failed: [] };
  // Unreadable now: every save below fails and says why, per app.
  const had = await readSecretsSection(file, section).catch((): Record<string, undefined> => ({}));
  for (const app of apps) {
    try {
      const got = await client.getAppWithSecrets(app.id);
      if (got === null) {
        out.failed.push({ address: app.address, message: `GET /api/apps/${app.id} found no such app` });
        continue;
      }
      // As secrets pull does: a token is written only under the address of the app it belongs to.
      const live = appAddressOf(got.app);
      if (live !== app.address) {
        out.failed.push({ address: app.address, message: `app id ${app.id} is ${live}, not ${app.address}: its token was not written (fix the record: menuctl state rm, then menuctl import)` });
        continue;
      }
      const { secrets } = got;
      // An app read back after an update that changed no secret (its name, say): the file has it.
      const entry = had[app.address];
      if (entry?.id === app.id && entry.token === secrets.token && (entry.webhook_secret ?? null) === (secrets.webhook_secret ?? null)) continue;
      await writer.save(app.address, { id: app.id, ...secrets });
      out.written.push(app.address);
    } catch (err) {
      // A malformed answer's message quotes the start of the body, which here may hold the token.
      const message = err instanceof ResponseShapeError ? `GET /api/apps/${app.id}: the answer did not carry the app's token` : (err as Error).message;
      out.failed.push({ address: app.address, message });
    }
  }
  return out;
}
