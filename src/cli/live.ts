// Reading the live state for a config: the organization guard first, then the fewest requests.
import { readLiveState } from '../api/read-live.js';
import type { ApiClient } from '../api/types.js';
import type { DesiredState, LiveState } from '../model/types.js';
import { wantParsers } from '../plan/want-parsers.js';

export interface ReadForOptions {
  client: ApiClient;
  concurrency: number;
  signal?: AbortSignal;
  /** Checks the organization guard against the config's organization_id (cli/connect.ts checkOrganization). */
  checkOrganization?: (configOrg: number | undefined) => Promise<unknown>;
}

/** Live state for `desired`: the parsers of the actions it manages, all apps, the operator catalog. */
export async function readLiveFor(desired: DesiredState, options: ReadForOptions): Promise<LiveState> {
  await options.checkOrganization?.(desired.organization_id);
  return readLiveState(options.client, {
    wantParsers: wantParsers(desired),
    pinnedAppIds: desired.apps.flatMap((a) => (a.id === undefined ? [] : [a.id])),
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
