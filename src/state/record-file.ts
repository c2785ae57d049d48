// The record a command works with, and keeping it while apply runs. Every change is written to
// its backend (src/state/, atomically) only after the API confirmed the write it describes,
// except the in-flight mark, which is written before its create is sent: an apply killed at any
// point leaves a record the next plan can read truthfully.

import { canonicalStep } from '../model/canonical.js';
import type { RecordWriter } from '../model/kinds/index.js';
import type { RecordedScope, ResolvedAction } from '../model/types.js';
import type { RecordStore } from './store.js';
import { emptyScope, type RecordDocument, type RecordedAction, type RecordedApp, type ScopeRecord } from '../record/record.js';

/** The record a command works with: where it lives, what it holds, and which scope is this API's. */
export interface LoadedRecord {
  store: RecordStore;
  /** How messages name it (a path relative to the working directory, or a URL without password). */
  shown: string;
  doc: RecordDocument;
  key: string;
}

/** The scope of this API in the document, or null when it holds nothing for it. */
export function scopeOf(record: LoadedRecord): ScopeRecord | null {
  return record.doc.get(record.key) ?? null;
}

/** What the planner and export are given of the record (model/types.ts RecordedScope); undefined without one. */
export function recordedScope(record: LoadedRecord | undefined): RecordedScope | undefined {
  return record ? { file: record.shown, scope: scopeOf(record) } : undefined;
}

/**
 * The record while apply runs. Mutations change the document in memory; `flush` writes it,
 * coalescing: while one write is on its way, every later change goes into the next one.
 */
export class RecordKeeper implements RecordWriter {
  private version = 0;
  private written = 0;
  /** performance.now() before which the next write waits (see flush). */
  private nextWriteAt = 0;
  private chain: Promise<void> = Promise.resolve();
  /** Live action id -> its addresses in this API's scope, built on first use (a rename moves a line). */
  private actionAt: Map<string, Set<string>> | undefined;

  constructor(private readonly record: LoadedRecord) {}

  get shown(): string {
    return this.record.shown;
  }

  /** Fails before the first write to the API when the record could not be written. */
  check(): Promise<void> {
    return this.record.store.check();
  }

  private scope(): ScopeRecord {
    let s = this.record.doc.get(this.record.key);
    if (!s) this.record.doc.set(this.record.key, (s = emptyScope()));
    return s;
  }

  appPending(address: string): Promise<void> {
    this.scope().apps.set(address, { id: null, pending: 'create' });
    // The app's POST waits for this line, in its API slot: no pause before writing it.
    return this.flush({ urgent: true });
  }

  appIs(address: string, id: string): Promise<void> {
    const apps = this.scope().apps;
    // A rename (a pinned id under a new package_name) moves the line: one line per live app, so
    // the old package_name can never take this app's id again (plan/compare.ts recordedPin).
    const others = [...apps].filter(([other, a]) => other !== address && a.id === id);
    if (apps.get(address)?.id === id && others.length === 0) return Promise.resolve();
    const wasInFlight = apps.get(address)?.pending === 'create';
    for (const [other] of others) apps.delete(other);
    apps.set(address, { id });
    // A new app's id is how its token is read again (secrets pull): written at once, no pause.
    return this.flush({ urgent: wasInFlight });
  }


  private addresses(): Map<string, Set<string>> {
    if (this.actionAt === undefined) {
      const at = new Map<string, Set<string>>();
      for (const [address, a] of this.scope().actions) {
        if (a.id === null) continue;
        const set = at.get(a.id);
        if (set) set.add(address);
        else at.set(a.id, new Set([address]));
      }
      this.actionAt = at;
    }
    return this.actionAt;
  }

  actionApplied(address: string, id: string, desired: ResolvedAction): Promise<void> {
    return this.actionIs(address, id, { steps: desired.steps.map(canonicalStep), operator_ids: operatorIds(desired) });
  }

  /**
   * The live id of an action whose details are `details` (what was sent), or unknown (adopted by
   * export or import: never assumed).
   */
  actionIs(address: string, id: string, details: Pick<RecordedAction, 'steps' | 'operator_ids'> | 'unknown'): Promise<void> {
    const actions = this.scope().actions;
    // A rename moves the line: one line per live action. Looked up by id, not by a scan of every
    // line (a scan per confirmed action made apply quadratic).
    const at = this.addresses();
    for (const other of at.get(id) ?? []) if (other !== address && actions.get(other)?.id === id) actions.delete(other);
    at.set(id, new Set([address]));
    actions.set(address, details === 'unknown'
      ? { id, steps: [], operator_ids: [], details: 'unknown' }
      : { id, steps: details.steps, operator_ids: details.operator_ids });
    return this.flush();
  }

  /**
   * Before an action's create is sent: the details it carries, so an apply killed before the
   * answer leaves a record that still knows them (the live action of that name is this one).
   */
  actionPending(address: string, desired: ResolvedAction): Promise<void> {
    return this.actionsPending([{ address, desired }]);
  }

  /**
   * The same for many creates in one write (apply marks them all before the first is sent). A
   * line already in flight with these details needs no write; one that holds a live id is kept:
   * the create's answer replaces it.
   */
  actionsPending(creates: readonly { address: string; desired: ResolvedAction }[]): Promise<void> {
    const actions = this.scope().actions;
    let changed = false;
    for (const { address, desired } of creates) {
      const was = actions.get(address);
      if (was !== undefined && was.id !== null) continue;
      const steps = desired.steps.map(canonicalStep);
      const ids = operatorIds(desired);
      if (was?.pending === 'create' && JSON.stringify([was.steps, was.operator_ids]) === JSON.stringify([steps, ids])) continue;
      actions.set(address, { id: null, pending: 'create', steps, operator_ids: ids });
      changed = true;
    }
    return changed ? this.flush({ urgent: true }) : Promise.resolve();
  }

  /** A create that certainly did not happen is no longer in flight; one whose answer was lost says how. */
  createFailed(recordedIn: keyof ScopeRecord, address: string, lost: string | null): Promise<void> {
    const table = this.scope()[recordedIn] as Map<string, RecordedAction | RecordedApp>;
    const line = table.get(address);
    if (line?.pending !== 'create') return Promise.resolve();
    if (lost === null) table.delete(address);
    else table.set(address, { ...line, lost } as RecordedAction & RecordedApp);
    return this.flush();
  }

  /** `urgent`: a request waits for this write before it is sent (skip the pause). */
  flush(options: { urgent?: boolean } = {}): Promise<void> {
    const want = ++this.version;
    const run = async (): Promise<void> => {
      if (this.written >= want) return;
      // As long a pause after a write as the write took: the writer keeps at most half of the
      // thread, and the confirmations that come meanwhile go into the next write together.
      const pause = options.urgent ? 0 : this.nextWriteAt - performance.now();
      if (pause > 0) await new Promise((resume) => setTimeout(resume, pause));
      const version = this.version;
      const started = performance.now();
      await this.record.store.save(this.record.doc, this.record.key, `record for ${this.record.key}`);
      this.written = version;
      this.nextWriteAt = 2 * performance.now() - started;
    };
    this.chain = this.chain.then(run, run);
    return this.chain;
  }
}

const operatorIds = (desired: ResolvedAction): number[] => [...new Set(desired.operator_ids)].sort((a, b) => a - b);
