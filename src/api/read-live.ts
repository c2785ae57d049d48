// Reads the live state with the fewest requests (issue 4, item 2):
//   1 GET /api/actions + 1 GET /api/apps + 1 GET /api/world_operators, concurrently,
//   then 1 GET /api/actions/{id}/parsers per action the caller wants, at most `concurrency`
//   at a time (the API has no way to list all parsers at once).
// Without GET /api/apps (a reference-server extension: the spec has none), each app id pinned
// in the config or kept in the applied-state record is read instead. Without a record, the
// state says so in a warning: unpinned apps are then invisible to the planner.

import pLimit from 'p-limit';
import type { ApiClient } from './types.js';
import { warning, type Warning } from '../model/diagnostic.js';
import type { LiveAction, LiveApp, LiveParser, LiveState } from '../model/types.js';

export interface ReadLiveOptions {
  /** Which actions' parsers to read (those the config manages, or all for export/drift). */
  wantParsers: (action: LiveAction) => boolean;
  /** App ids pinned in the config: read one by one when the server cannot list apps. */
  pinnedAppIds?: string[];
  /** App ids from the applied-state record; undefined when no record is in use. */
  recordedAppIds?: string[];
  concurrency: number;
  signal?: AbortSignal;
  /**
   * Called once the lists are in, before any parser is read. What it returns is given each
   * action's parsers as they arrive: a plan compares that action then, while the others are read.
   */
  onLists?: (lists: { actions: LiveAction[]; operators: LiveState['operators'] }) => ((action: LiveAction, parsers: LiveParser[]) => void) | undefined;
}

export async function readLiveState(client: ApiClient, options: ReadLiveOptions): Promise<LiveState> {
  const { signal } = options;
  signal?.throwIfAborted();
  const [organization_id, actions, listedApps, operators] = await Promise.all([
    client.organizationId(),
    client.listActions(),
    client.listApps(),
    client.listOperators(),
  ]);
  const warnings: Warning[] = [];
  const limit = pLimit(options.concurrency);
  const arrived = options.onLists?.({ actions, operators });
  const parserLists = await Promise.all(
    actions.filter(options.wantParsers).map((action) => limit(async () => {
      signal?.throwIfAborted();
      const parsers = await client.listParsers(action.id);
      arrived?.(action, parsers);
      return parsers;
    })),
  );
  let apps: LiveApp[];
  if (listedApps !== null) {
    apps = listedApps;
  } else {
    const pinned = [...new Set([...(options.pinnedAppIds ?? []), ...(options.recordedAppIds ?? [])])];
    const found = await Promise.all(pinned.map((id) => limit(() => {
      signal?.throwIfAborted();
      return client.getApp(id);
    })));
    apps = found.filter((app): app is LiveApp => app !== null);
    if (options.recordedAppIds === undefined) warnings.push(warning('live.apps-not-listed',
      `the API has no GET /api/apps: read ${pinned.length} pinned app(s) by id instead; ` +
      'apps without an `id:` in the config cannot be matched to live ones (pin them to avoid duplicates)',
    ));
  }
  return {
    organization_id,
    actions,
    parsers: parserLists.flat(),
    apps,
    apps_listed: listedApps !== null,
    operators,
    warnings,
  };
}
