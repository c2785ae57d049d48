// menuctl state list|show|rm|push|unlock (CONTRACT.md "State"). Offline: the record is read
// from its backend, never from the API. rm and push hold the scope locks they write under.

import type { RecordDocument, ScopeRecord } from '../record/record.js';
import { actionLine, appLine, emptyScope } from '../record/record.js';
import { parseAddress } from '../model/address.js';
import { KINDS } from '../model/kinds/index.js';
import { describeHolder, LockHolderAlive } from '../state/backend.js';
import { inert } from '../text/inert.js';
import { openState, shownUrl } from '../state/open.js';
import { FileBackend } from '../state/file.js';
import { RecordStore } from '../state/store.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { lockScope, openRecordStore, type RecordFlags } from './record.js';
import type { Io } from './io.js';

export interface StateFlags extends RecordFlags {
  scope?: string;
  to?: string;
  overwrite?: boolean;
  force?: boolean;
}

async function withStore<T>(paths: readonly string[], flags: StateFlags, io: Io, use: (store: RecordStore) => Promise<T>): Promise<T> {
  const store = await openRecordStore(paths, flags, io);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function load(store: RecordStore): Promise<RecordDocument> {
  try {
    return await store.load();
  } catch (err) {
    throw new CliError((err as Error).message, { code: 'state.unreadable' });
  }
}

interface Row {
  scope: string;
  address: string;
  id: string;
  /** The line as the record holds it (scope and address first). */
  line: object;
}

function rows(doc: RecordDocument, scope?: string): Row[] {
  const out: Row[] = [];
  for (const [key, s] of [...doc].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (scope !== undefined && key !== scope) continue;
    const lines: Row[] = [];
    for (const [address, a] of s.actions) lines.push({ scope: key, address, id: a.id ?? '(create in flight)', line: actionLine(key, address, a) });
    for (const [address, a] of s.apps) lines.push({ scope: key, address, id: a.id ?? '(create in flight)', line: appLine(key, address, a) });
    lines.sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
    out.push(...lines);
  }
  return out;
}

/** Addresses and scopes are shown as JSON strings: a name from a file cannot fake a column or a line. */
const quoted = (s: string): string => JSON.stringify(s);

export async function stateList(paths: string[], flags: StateFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  return withStore(paths, flags, io, async (store) => {
    const doc = await load(store);
    const list = rows(doc, flags.scope);
    // Tab-separated: a scope (a normalised URL and org, or an environment name) has no tab or line break.
    for (const r of list) io.stdout.write(`${inert(r.scope)}\t${inert(r.address)}\t${inert(r.id)}\n`);
    if (list.length === 0) io.stderr.write(`${store.shown} holds no resource${flags.scope !== undefined ? ` for scope ${quoted(flags.scope)}` : ''}.\n`);
    for (const h of await store.backend.locks()) io.stderr.write(`Locked: ${quoted(h.scope)} by ${inert(describeHolder(h))} (lock id ${inert(h.id)}).\n`);
    return EXIT.OK;
  });
}

function checkAddress(address: string): void {
  const a = parseAddress(address);
  // The record keeps lines of some kinds only (not parsers: the API shows every parser field).
  if (a === null || KINDS[a.type].recordedIn === undefined) {
    throw new CliError(`${quoted(address)} is not an action or app address: write action["NAME"] or app["PACKAGE"] (parsers are not recorded: the API shows every parser field)`, { code: 'address.invalid' });
  }
}

export async function stateShow(address: string, paths: string[], flags: StateFlags, ctx: CliContext): Promise<number> {
  checkAddress(address);
  const { io } = ctx;
  return withStore(paths, flags, io, async (store) => {
    const found = rows(await load(store), flags.scope).filter((r) => r.address === address);
    if (found.length === 0) throw new CliError(`${store.shown} has no line for ${address}${flags.scope !== undefined ? ` in scope ${quoted(flags.scope)}` : ''}: \`menuctl state list\` shows what it holds`, { code: 'state.no-line' });
    for (const r of found) io.stdout.write(`${JSON.stringify(r.line, null, 2)}\n`);
    return EXIT.OK;
  });
}

/** The one scope that holds `address`, or the one --scope names; refused when it is ambiguous. */
function scopeFor(doc: RecordDocument, address: string, flags: StateFlags, shown: string): string {
  const holding = [...doc].filter(([, s]) => s.actions.has(address) || s.apps.has(address)).map(([k]) => k);
  if (flags.scope !== undefined) {
    if (!holding.includes(flags.scope)) throw new CliError(`${shown} has no line for ${address} in scope ${quoted(flags.scope)}${holding.length ? `; it is held in ${holding.map(quoted).join(', ')}` : ''}`, { code: 'state.no-line' });
    return flags.scope;
  }
  if (holding.length === 0) throw new CliError(`${shown} has no line for ${address}: \`menuctl state list\` shows what it holds`, { code: 'state.no-line' });
  if (holding.length > 1) throw new CliError(`${address} is recorded in ${holding.length} scopes (${holding.map(quoted).join(', ')}): name one with --scope`, { code: 'state.scope-ambiguous' });
  return holding[0]!;
}

export async function stateRm(address: string, paths: string[], flags: StateFlags, ctx: CliContext): Promise<number> {
  checkAddress(address);
  const { io } = ctx;
  return withStore(paths, flags, io, async (store) => {
    const key = scopeFor(await load(store), address, flags, store.shown);
    // Locked, then read again: the lines removed are the ones no apply is changing.
    await lockScope(store, key, { command: `state rm ${address}`, timeoutMs: flags.lockTimeout ?? 0 }, io);
    const doc = await load(store);
    const scope = doc.get(key) ?? emptyScope();
    const had = scope.actions.get(address) ?? scope.apps.get(address);
    if (had === undefined) throw new CliError(`${store.shown} no longer has a line for ${address} in ${quoted(key)}: another run removed it`, { code: 'state.no-line' });
    scope.actions.delete(address);
    scope.apps.delete(address);
    if (scope.actions.size === 0 && scope.apps.size === 0) doc.delete(key);
    await store.save(doc, key, `state rm ${address} from ${key}`);
    const id = 'id' in had && had.id !== null ? `id ${had.id}` : 'its create in flight';
    io.stdout.write(`Removed ${address} (${id}) from ${quoted(key)} in ${store.shown}. The live resource is unchanged; menuctl no longer manages it.\n`);
    return EXIT.OK;
  });
}

const sameScope = (a: ScopeRecord, b: ScopeRecord): boolean => JSON.stringify(entries(a)) === JSON.stringify(entries(b));
const entries = (s: ScopeRecord) => [[...s.actions].sort(), [...s.apps].sort()];

/**
 * Where push reads from. MENUCTL_STATE names where the team's record lives, which is what a first
 * push sends to (`state push config/ --to "$MENUCTL_STATE"`, docs/ci.md): when it names --to, the
 * source is the record file beside the config, not the destination itself. --state and --record
 * are taken as given.
 */
function pushSourceIo(flags: StateFlags, to: string, io: Io): Io {
  const fromEnv = io.env.MENUCTL_STATE?.trim();
  if (flags.state !== undefined || flags.record !== undefined || !fromEnv || fromEnv !== to) return io;
  return { ...io, env: { ...io.env, MENUCTL_STATE: undefined } };
}

export async function statePush(paths: string[], flags: StateFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const to = flags.to!.trim();
  return withStore(paths, flags, pushSourceIo(flags, to, io), async (from) => {
    let dest: RecordStore;
    try {
      dest = new RecordStore(await openState(to, { env: io.env, cwd: io.cwd }));
    } catch (err) {
      throw new CliError(`cannot open the state ${shownUrl(to)}: ${(err as Error).message}`, { code: 'state.cannot-open' });
    }
    try {
      if (dest.shown === from.shown) throw new CliError(`--to names the state being pushed (${from.shown}): give another backend`, { code: 'state.push-same' });
      const scopes = [...(await load(from)).keys()].sort();
      if (scopes.length === 0) throw new CliError(`${from.shown} holds no record: nothing to push`, { code: 'state.push-empty' });
      // Every scope is locked on both sides: no apply changes one while it moves.
      const timeoutMs = flags.lockTimeout ?? 0;
      for (const key of scopes) {
        await lockScope(from, key, { command: 'state push', timeoutMs }, io);
        await lockScope(dest, key, { command: 'state push', timeoutMs }, io);
      }
      const source = await load(from);
      const target = await load(dest);
      const clashes = scopes.filter((k) => target.has(k) && !sameScope(target.get(k)!, source.get(k)!));
      if (clashes.length > 0 && !flags.overwrite) {
        throw new CliError(`${dest.shown} already holds other lines for ${clashes.map(quoted).join(', ')}: nothing was pushed. Compare them (\`menuctl state list --state ${shownUrl(to)}\`), then pass --overwrite to replace them with ${from.shown}'s`, { code: 'state.push-clash' });
      }
      let copied = 0;
      for (const key of scopes) {
        if (target.has(key) && sameScope(target.get(key)!, source.get(key)!)) continue;
        target.set(key, source.get(key)!);
        await dest.save(target, key, `state push of ${key} from ${from.shown}`);
        copied++;
      }
      // Read back: what the destination holds now is what was pushed, line for line.
      const check = await load(dest);
      const lost = scopes.filter((k) => !check.has(k) || !sameScope(check.get(k)!, source.get(k)!));
      if (lost.length > 0) throw new CliError(`after the push, ${dest.shown} differs from ${from.shown} for ${lost.map(quoted).join(', ')}: another run wrote it meanwhile; push again`, { code: 'state.push-lost' });
      const lines = rows(source).length;
      io.stdout.write(`Pushed ${scopes.length} scope${scopes.length === 1 ? '' : 's'} (${lines} line${lines === 1 ? '' : 's'}, ${copied} scope${copied === 1 ? '' : 's'} written) from ${from.shown} to ${dest.shown}. Use it from now on with --state ${shownUrl(to)} or MENUCTL_STATE; ${from.shown} is left as it was.\n`);
      // A file left beside the config is still the record of every command run without --state or
      // MENUCTL_STATE (a teammate, a job not yet moved), and goes stale with the first apply elsewhere.
      if (from.backend instanceof FileBackend) {
        io.stdout.write(`${from.shown} is now a stale copy: a command run without --state or MENUCTL_STATE still reads it. Once every job and teammate uses ${shownUrl(to)}, delete it (\`git rm ${from.shown}\` if it is committed).\n`);
      }
      return EXIT.OK;
    } finally {
      await dest.close();
    }
  });
}

export async function stateUnlock(id: string, paths: string[], flags: StateFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  return withStore(paths, flags, io, async (store) => {
    let released;
    try {
      released = await store.backend.unlock(id, { force: flags.force === true });
    } catch (err) {
      if (err instanceof LockHolderAlive) throw new CliError(`cannot release lock ${inert(id)}: ${inert(err.message)}. Nothing was changed.`, { code: 'state.holder-alive' });
      throw new CliError(`cannot release lock ${id} of ${store.shown}: ${(err as Error).message}`, { code: 'state.unlock-failed' });
    }
    if (released === null) {
      const held = await store.backend.locks();
      const now = held.length === 0 ? 'it holds no lock now' : `it holds ${held.map((h) => `${h.id} (${quoted(h.scope)})`).join(', ')}`;
      throw new CliError(`${store.shown} has no lock with id ${id}: ${now}`, { code: 'state.no-lock' });
    }
    io.stdout.write(`Released lock ${inert(released.id)} of ${quoted(released.scope)}: it was held by ${inert(describeHolder(released))}. ${flags.force ? 'If that run still works, it stops at its next write. ' : ''}Run \`menuctl plan\` to see what that run left.\n`);
    return EXIT.OK;
  });
}
