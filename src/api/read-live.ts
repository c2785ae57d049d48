// Reads the live state with the fewest requests:
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
import { ACTION_TABLE } from '../model/kinds/action-fields.js';
import { PARSER_TABLE } from '../model/kinds/parser-fields.js';
import { SettledLiveParser } from '../model/settled-parser.js';
import { StringPool } from '../text/string-pool.js';

/** The fields whose values repeat across resources (an action's parsers share its id; statuses, regexes...): the table's pooled ones and the server's. */
const PARSER_SHARED: readonly (keyof LiveParser & string)[] = ['action_id', ...PARSER_TABLE.pooled, 'archived_at'];
/** The server's own fields of an action that repeat (the table's pooled fields, operators and steps too). */
const ACTION_SHARED = ['description', 'archived_at', 'updated_at'] as const;

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
   * It may replace a parser in the list by an equivalent one (model/settled-parser.ts).
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
  // One copy of each repeated string across the whole live state: JSON.parse gives every value
  // its own (docs/benchmarks.md "memory").
  const strings = new StringPool();
  const pooled = (s: string): string => strings.get(s);
  for (const a of actions) {
    ACTION_TABLE.pool(a, pooled);
    strings.fields(a, ACTION_SHARED);
  }
  const limit = pLimit(options.concurrency);
  const arrived = options.onLists?.({ actions, operators });
  const parserLists = await eachLimited(actions.filter(options.wantParsers), options.concurrency, async (action) => {
    signal?.throwIfAborted();
    const parsers = await client.listParsers(action.id);
    // updated_at first: a settled parser keeps it. The rest after `arrived`, which may settle some
    // (plan/compare.ts settle): those read the config's strings, and pooling theirs would keep them.
    for (const p of parsers) if (typeof p.updated_at === 'string') p.updated_at = strings.get(p.updated_at);
    arrived?.(action, parsers);
    for (const p of parsers) if (!(p instanceof SettledLiveParser)) strings.fields(p, PARSER_SHARED);
    return parsers;
  });
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

/**
 * `work` for every item, at most `concurrency` at once, results in the items' order. Workers take
 * the next item as they finish, so only `concurrency` calls are ever pending: queueing all of
 * them up front (p-limit) held a promise and a closure per action.
 * The first failure rejects; the workers then stop taking items.
 */
async function eachLimited<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number from 1, not ${concurrency}`);
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await work(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return out;
}
