// The live state a config needs, with the fewest requests: the first half of plan, apply and
// drift after the config is loaded. Reads only; returns data (warnings in LiveState.warnings).

import pLimit from 'p-limit';
import type { ApiClient } from '../api/types.js';
import { readLiveState } from '../api/read-live.js';
import { warning } from '../model/diagnostic.js';
import type { DesiredState, LiveAction, LiveParser, LiveState, RecordedScope } from '../model/types.js';
import { wantParsers } from '../plan/want-parsers.js';
import { Comparer, type LiveLists } from '../plan/compare.js';
import { recordedScope, scopeOf, type LoadedRecord } from '../state/record-file.js';
import { recordedAppIds } from '../record/record.js';
import { IdleQueue } from './idle-queue.js';

export interface ReadLiveForOptions {
  client: ApiClient;
  concurrency: number;
  signal?: AbortSignal;
  /** Checks the organization guard against the config's organization_id (cli/connect.ts checkOrganization). */
  checkOrganization?: (configOrg: number | undefined) => Promise<unknown>;
  /** The applied-state record: what the API cannot tell (src/record/). */
  record?: LoadedRecord;
  /** Given the live lists before any parser is read; see ReadLiveOptions.onLists. */
  onLists?: (lists: LiveLists) => ((action: LiveAction, parsers: LiveParser[]) => void) | undefined;
  /** Told how many actions' parsers are read so far, of how many (cli/progress.ts readProgress). */
  onRead?: (done: number, total: number) => void;
}

/**
 * readLiveFor, comparing each action with the config as its parsers arrive, in the time the loop
 * would spend waiting for the others (idle-queue.ts): the comparer's finish() is then mostly done.
 * `recorded`: the record's scope the comparer was made with, for its finish() and the plan.
 */
export async function readLiveComparing(
  desired: DesiredState,
  options: ReadLiveForOptions,
): Promise<{ live: LiveState; comparer: Comparer | undefined; comparedWhileReading: number; recorded: RecordedScope | undefined }> {
  const recorded = recordedScope(options.record);
  let comparer: Comparer | undefined;
  let early: IdleQueue<[LiveAction, LiveParser[]]> | undefined;
  let live: LiveState;
  try {
    live = await readLiveFor(desired, { ...options, onLists: (lists) => {
      early = new IdleQueue(([action, parsers]) => comparer!.parsersOf(action.id, parsers));
      return (action, parsers) => {
        // Made when the first parsers arrive, so that matching every action does not hold up
        // the first parser requests. Settling is a few string comparisons per parser, done as
        // they arrive so that the parsers as parsed are never all held (compare.ts settle).
        (comparer ??= new Comparer(desired, lists, recorded)).settle(action.id, parsers);
        early!.push([action, parsers]);
      };
    } });
  } catch (e) {
    early?.cancel();
    throw e;
  }
  const comparedWhileReading = comparer?.comparedEarly ?? 0;
  // What is still queued is left to finish(), which compares it as cheaply: compared here, each
  // part would be held beside the others until finish() copies them (against a fast API nearly
  // all are still queued at the end).
  early?.abandon();
  return { live, comparer, comparedWhileReading, recorded };
}

/** Most pinned parser ids read one by one: a config pinned for another organization must not cost one request per parser. */
const MAX_PINNED_LOOKUPS = 20;

/**
 * Parsers pinned by id in the config that are not among those read: each is read by id, so that
 * the plan can name the action that owns it instead of saying it does not exist. A pin like that
 * is an error either way; this costs a request per such pin (the first MAX_PINNED_LOOKUPS), and
 * none otherwise.
 */
async function readPinnedElsewhere(desired: DesiredState, live: LiveState, options: ReadLiveForOptions): Promise<void> {
  const read = new Set(live.parsers.map((p) => p.id));
  const missing = [...new Set(desired.actions.flatMap((a) => a.parsers.flatMap((p) => (p.id !== undefined && !read.has(p.id) ? [p.id] : []))))];
  const limit = pLimit(options.concurrency);
  const found = await Promise.all(missing.slice(0, MAX_PINNED_LOOKUPS).map((id) => limit(() => {
    options.signal?.throwIfAborted();
    return options.client.getParser(id);
  })));
  const elsewhere = found.filter((p): p is LiveParser => p !== null);
  if (elsewhere.length > 0) live.pinned_elsewhere = elsewhere;
}

/** The organization guard first, then the live state `desired` needs with the fewest requests. */
export async function readLiveFor(desired: DesiredState, options: ReadLiveForOptions): Promise<LiveState> {
  await options.checkOrganization?.(desired.organization_id);
  const scope = options.record ? scopeOf(options.record) : null;
  const onLists = options.onLists;
  const onRead = options.onRead;
  const want = wantParsers(desired);
  const live = await readLiveState(options.client, {
    ...(onLists || onRead ? { onLists: (lists: LiveLists) => {
      const arrived = onLists?.(lists);
      if (!onRead) return arrived;
      const total = lists.actions.filter(want).length;
      let done = 0;
      onRead(done, total);
      return (action: LiveAction, parsers: LiveParser[]) => {
        arrived?.(action, parsers);
        onRead(++done, total);
      };
    } } : {}),
    wantParsers: want,
    pinnedAppIds: desired.apps.flatMap((a) => (a.id === undefined ? [] : [a.id])),
    ...(options.record ? { recordedAppIds: recordedAppIds(scope) } : {}),
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  await readPinnedElsewhere(desired, live, options);
  if (options.record) {
    const unknown = desired.apps.filter((a) => a.id === undefined);
    if (!live.apps_listed && unknown.length > 0 && scope === null) {
      live.warnings.push(warning('live.apps-not-recorded',
        `the API cannot list apps and ${options.record.shown} has no record for this API yet: ${unknown.length} app(s) without \`id:\` ` +
        'are planned as new. If they already exist in this organization, pin them with `id:` first, or they will be created twice.',
      ));
    }
  }
  return live;
}
