// Where the applied-state record is (docs/planning.md "State backends"): `--state URL`, else
// `--record FILE` (the older spelling of `--state file:FILE`), else MENUCTL_STATE, else
// `menuctl.lock` beside the config (in the directory given, or the first file's directory; the
// working directory when no PATH is given). Then which of its scopes is this API's, and, for the
// commands that write it, that scope's lock.

import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Option } from 'commander';
import type { ApiClient } from '../api/types.js';
import type { LoadedRecord } from '../state/record-file.js';
import { RECORD_FILE, scopeKey } from '../record/record.js';
import { describeHolder, LockHeld, type LockInfo } from '../state/backend.js';
import { openState, shownUrl } from '../state/open.js';
import { RecordStore } from '../state/store.js';
import { holderAlive, holderGone } from '../state/process.js';
import { inert } from '../text/inert.js';
import { CliError } from './exit.js';
import { filePath } from './options.js';
import type { Io } from './io.js';

export interface RecordFlags {
  record?: string;
  state?: string;
  lockTimeout?: number;
}

export function recordOption(): Option {
  return new Option('--record <file>', `the applied-state record file: same as --state file:FILE (default: ${RECORD_FILE} beside the config)`).argParser(filePath);
}

export function stateOption(): Option {
  return new Option('--state <url>', 'where the applied-state record lives: file:PATH, git+URL#BRANCH or postgres://USER@HOST:PORT/DB (env: MENUCTL_STATE; default: file:menuctl.lock beside the config)');
}

export function lockTimeoutOption(): Option {
  return new Option('--lock-timeout <duration>', 'how long to wait for the state lock another run holds, e.g. 30s, 5m (default: 0s, refuse at once)').argParser(parseDuration);
}

/** `0`, `30s`, `5m`, `1h`, `250ms` to milliseconds. */
export function parseDuration(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!m) throw new CliError(`--lock-timeout ${JSON.stringify(value)} is not a duration: write e.g. 0s, 30s, 5m or 1h`, { code: 'cli.duration' });
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's']!;
  return Math.round(Number(m[1]) * unit);
}

/** The record file's default path for these config PATHs. */
export function recordPath(paths: readonly string[], flags: Pick<RecordFlags, 'record'>, io: Io): string {
  if (flags.record !== undefined) return resolve(io.cwd, flags.record);
  if (paths.length === 0) return join(io.cwd, RECORD_FILE);
  const first = resolve(io.cwd, paths[0]!);
  let isDir = false;
  try {
    isDir = statSync(first).isDirectory();
  } catch {
    // the loader reports a missing path
  }
  return join(isDir ? first : dirname(first), RECORD_FILE);
}

/** The state URL these flags, this environment and these PATHs name. */
export function stateUrl(paths: readonly string[], flags: RecordFlags, io: Io, defaultFile?: string): string {
  if (flags.state !== undefined && flags.record !== undefined) {
    throw new CliError('--state and --record both say where the record is: keep one (--record FILE is --state file:FILE)', { code: 'state.flags' });
  }
  if (flags.state !== undefined) return flags.state.trim();
  if (flags.record !== undefined) return `file:${recordPath(paths, flags, io)}`;
  const fromEnv = io.env.MENUCTL_STATE?.trim();
  if (fromEnv) return fromEnv;
  return `file:${defaultFile ?? recordPath(paths, flags, io)}`;
}

/** Opens the backend these flags name (nothing read yet). Close it with `store.close()`. */
export async function openRecordStore(paths: readonly string[], flags: RecordFlags, io: Io, defaultFile?: string): Promise<RecordStore> {
  const url = stateUrl(paths, flags, io, defaultFile);
  try {
    return new RecordStore(await openState(url, { env: io.env, cwd: io.cwd }));
  } catch (err) {
    if (err instanceof CliError) throw err;
    // The backends' own messages name the URL already (without its password).
    const message = (err as Error).message;
    throw new CliError(message.includes(shownUrl(url)) ? message : `cannot open the state ${shownUrl(url)}: ${message}`, { code: 'state.open' });
  }
}

export interface LoadOptions {
  client: ApiClient;
  baseUrl: string;
  io: Io;
  environment?: string | null;
  /** Take the scope's lock before the first read (apply, import, state rm): the command's name. */
  lock?: { command: string; timeoutMs: number };
}

/** Picks this API's scope (by environment, else base URL and the credentials' organization), locks it if asked, reads the record. */
export async function loadRecord(store: RecordStore, o: LoadOptions): Promise<LoadedRecord> {
  // Scoped by environment needs no organization lookup (a login) before the plan.
  const key = o.environment ? scopeKey(o.baseUrl, null, o.environment) : scopeKey(o.baseUrl, await o.client.organizationId());
  if (o.lock) await lockScope(store, key, o.lock, o.io);
  try {
    return { store, shown: store.shown, doc: await store.load(), key };
  } catch (err) {
    throw new CliError((err as Error).message, { code: 'record.unreadable' });
  }
}

/** For the commands that only read it (plan, drift, export): open, read, close. */
export async function readRecord(paths: readonly string[], flags: RecordFlags, o: Omit<LoadOptions, 'lock'> & { defaultFile?: string }): Promise<LoadedRecord> {
  const store = await openRecordStore(paths, flags, o.io, o.defaultFile);
  try {
    return await loadRecord(store, o);
  } finally {
    await store.close();
  }
}

/** Takes the scope's lock, or refuses naming the holder and the way to release it. */
export async function lockScope(store: RecordStore, key: string, lock: { command: string; timeoutMs: number }, io: Io): Promise<void> {
  try {
    await store.lock(key, lock.command, {
      env: io.env,
      timeoutMs: lock.timeoutMs,
      onWait: (h) => io.stderr.write(`Waiting up to ${Math.round(lock.timeoutMs / 1000)} s for the state lock of ${key}: held by ${inert(describeHolder(h))} (lock id ${inert(h.id)}).\n`),
      onStale: (h) => io.stderr.write(`Warning: the state lock of ${key} was left by ${inert(describeHolder(h))} (lock id ${inert(h.id)}), which stopped without releasing it (killed?): it is released and taken by this run. What that run confirmed is in the record; the plan shows the rest.\n`),
    });
  } catch (err) {
    if (err instanceof LockHeld) throw new CliError(lockRefusal(err.holder, store.shown, lock.timeoutMs), { code: 'state.locked' });
    throw new CliError(`${(err as Error).message}. Nothing was changed.`, { code: 'state.lock-failed' });
  }
}

export function lockRefusal(h: LockInfo, shown: string, timeoutMs: number): string {
  const gone = holderGone(h);
  const waited = timeoutMs > 0 ? ` after waiting ${Math.round(timeoutMs / 1000)} s` : '';
  return [
    `the state ${shown} of ${inert(h.scope)} is locked${waited}: held by ${inert(describeHolder(h))}, lock id ${inert(h.id)}. Nothing was changed.`,
    gone
      ? `  Its process ${h.pid} is no longer running on this host: it was stopped before it could release the lock. Check that its changes are what you expect (\`menuctl plan\`), then release it with \`menuctl state unlock ${inert(h.id)}\`.`
      : holderAlive(h)
        ? `  Its process ${h.pid} still runs on this host: wait for it to finish (or pass --lock-timeout 5m to wait). If it is stuck, stop it; \`menuctl state unlock ${inert(h.id)} --force\` releases the lock anyway, and that run stops at its next write.`
        : `  Wait for it to finish (or pass --lock-timeout 5m to wait), or, if that run was killed, release the lock with \`menuctl state unlock ${inert(h.id)}\`.`,
  ].join('\n');
}
