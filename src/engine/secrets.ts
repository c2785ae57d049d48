// secrets pull (CONTRACT.md "Ownership"): the API returns an app's token and webhook secret on
// GET /api/apps/{id}, so the record's ids are all it takes. Returns them; the caller writes them.

import type { ApiClient } from '../api/types.js';
import { scopeOf, type LoadedRecord } from '../state/record-file.js';

export interface Pulled {
  address: string;
  id: string;
  token: string;
  webhook_secret: string | null;
}

/** The secrets of every app the record holds with an id, by address; `missing`: recorded but not live. */
export async function pullSecrets(client: ApiClient, record: LoadedRecord): Promise<{ pulled: Pulled[]; missing: { address: string; id: string }[] }> {
  const pulled: Pulled[] = [];
  const missing: { address: string; id: string }[] = [];
  const apps = [...(scopeOf(record)?.apps ?? [])].filter(([, a]) => a.id !== null).sort(([x], [y]) => (x < y ? -1 : 1));
  for (const [address, app] of apps) {
    const secrets = await client.getAppSecrets(app.id!);
    if (secrets === null) missing.push({ address, id: app.id! });
    else pulled.push({ address, id: app.id!, token: secrets.token, webhook_secret: secrets.webhook_secret });
  }
  return { pulled, missing };
}
