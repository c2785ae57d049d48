// secrets pull (CONTRACT.md "Ownership"): the API returns an app's token and webhook secret on
// GET /api/apps/{id}, so the record's ids are all it takes. Returns them; the caller writes them.

import type { ApiClient } from '../api/types.js';
import { appAddressOf } from '../apply/complete-secrets.js';
import { scopeOf, type LoadedRecord } from '../state/record-file.js';

export interface Pulled {
  address: string;
  id: string;
  token: string;
  webhook_secret: string | null;
}

/** A recorded id whose live app is another one: its package_name is not the address's. */
export interface Mismatch {
  address: string;
  id: string;
  /** The live app's own address. */
  live: string;
}

/**
 * The secrets of every app the record holds with an id, by address; `missing`: recorded but not
 * live; `mismatched`: the id names an app of another package_name (a record edited by hand, or
 * ids swapped), whose token is not written under this name: as plan does (record-disagrees),
 * identity is checked, never assumed.
 */
export async function pullSecrets(client: ApiClient, record: LoadedRecord): Promise<{ pulled: Pulled[]; missing: { address: string; id: string }[]; mismatched: Mismatch[] }> {
  const pulled: Pulled[] = [];
  const missing: { address: string; id: string }[] = [];
  const mismatched: Mismatch[] = [];
  const apps = [...(scopeOf(record)?.apps ?? [])].filter(([, a]) => a.id !== null).sort(([x], [y]) => (x < y ? -1 : 1));
  for (const [address, app] of apps) {
    const got = await client.getAppWithSecrets(app.id!);
    if (got === null) {
      missing.push({ address, id: app.id! });
      continue;
    }
    const live = appAddressOf(got.app);
    if (live !== address) {
      mismatched.push({ address, id: app.id!, live });
      continue;
    }
    pulled.push({ address, id: app.id!, token: got.secrets.token, webhook_secret: got.secrets.webhook_secret });
  }
  return { pulled, missing, mismatched };
}
