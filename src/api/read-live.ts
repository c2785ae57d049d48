// Reads the live state with the fewest requests (issue 4, item 2):
//   1 GET /api/actions + 1 GET /api/apps + 1 GET /api/world_operators, concurrently,
//   then 1 GET /api/actions/{id}/parsers per action the caller wants, at most `concurrency`
//   at a time (the API has no way to list all parsers at once).
// Without GET /api/apps (a reference-server extension: the spec has none), each app id pinned
// in the config or kept in the applied-state record is read instead. Without a record, the
// state says so in a warning: unpinned apps are then invisible to the planner.
//
// startLiveRead begins at once and is finished later, with the final selection: `plan` starts
// reading with the names the config has before its validation ends (cli/pipeline.ts), and
// finishes with the validated config's; what the first selection missed is read then, what it
// had in excess is left out of the state.

import pLimit from 'p-limit';
import type { ApiClient } from './types.js';
import { warning, type Warning } from '../model/diagnostic.js';
import type { LiveAction, LiveApp, LiveParser, LiveState } from '../model/types.js';

export interface Selection {
  /** Which actions' parsers to read (those the config manages, or all for export/drift). */
  wantParsers: (action: LiveAction) => boolean;
  /** App ids pinned in the config: read one by one when the server cannot list apps. */
  pinnedAppIds?: string[];
}

export interface ReadLiveOptions extends Selection {
  /** App ids from the applied-state record; undefined when no record is in use. */
  recordedAppIds?: string[];
  concurrency: number;
  signal?: AbortSignal;
}

export interface LiveRead {
  /** Settles (never rejects) once the lists are in and the parsers of the first selection are queued. */
  readonly underway: Promise<void>;
  /** The live state once everything `final` selects is read (the first selection by default). */
  finish(final?: Selection): Promise<LiveState>;
  /** Sends nothing more (the config turned out invalid); requests in flight end unreported. */
  abandon(): void;
}

export async function readLiveState(client: ApiClient, options: ReadLiveOptions): Promise<LiveState> {
  return startLiveRead(client, options).finish();
}

export function startLiveRead(client: ApiClient, options: ReadLiveOptions): LiveRead {
  const abandoned = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, abandoned.signal]) : abandoned.signal;
  signal.throwIfAborted();
  const limit = pLimit(options.concurrency);
  const queued = <T>(read: () => Promise<T>): Promise<T> => {
    const p = limit(() => {
      signal.throwIfAborted();
      return read();
    });
    // Reported by finish() when it is wanted; an abandoned or dropped read is not an error.
    p.catch(() => undefined);
    return p;
  };
  const parsersOf = new Map<string, Promise<LiveParser[]>>();
  const readParsers = (action: LiveAction) => {
    let p = parsersOf.get(action.id);
    if (!p) parsersOf.set(action.id, (p = queued(() => client.listParsers(action.id))));
    return p;
  };
  const appsById = new Map<string, Promise<LiveApp | null>>();
  const readApp = (id: string) => {
    let p = appsById.get(id);
    if (!p) appsById.set(id, (p = queued(() => client.getApp(id))));
    return p;
  };
  const pinnedOf = (s: Selection) => [...new Set([...(s.pinnedAppIds ?? []), ...(options.recordedAppIds ?? [])])];

  const lists = Promise.all([client.organizationId(), client.listActions(), client.listApps(), client.listOperators()]);
  const started = lists.then(([, actions, listedApps]) => {
    if (signal.aborted) return;
    for (const action of actions) if (options.wantParsers(action)) void readParsers(action);
    if (listedApps === null) for (const id of pinnedOf(options)) void readApp(id);
  });
  started.catch(() => undefined);

  return {
    underway: started.then(() => undefined, () => undefined),
    abandon: () => abandoned.abort(new Error('the live read was abandoned')),
    async finish(final: Selection = options): Promise<LiveState> {
      const [organization_id, actions, listedApps, operators] = await lists;
      await started;
      const parserLists = await Promise.all(actions.filter(final.wantParsers).map(readParsers));
      const warnings: Warning[] = [];
      let apps: LiveApp[];
      if (listedApps !== null) {
        apps = listedApps;
      } else {
        const pinned = pinnedOf(final);
        const found = await Promise.all(pinned.map(readApp));
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
    },
  };
}
