// Counts what replay found (CONTRACT.md "Replay" JSON): the summary, the moves between outcomes,
// each changed transaction and the shapes of messages no parser matched. Every message that goes
// in is scrubbed (shape.ts, src/sessions/scrub.ts) before it is kept: nothing personal reaches a
// report. The result is sorted the same way on every run. Pure.

import { BoundedCache } from '../classify/bounded-cache.js';
import { scrubSender, scrubText } from '../sessions/scrub.js';
import { shapeOf } from './shape.js';

export interface ReplayChange {
  /** file:line of the record. */
  record: string;
  action: string;
  from: string;
  to: string;
  /** The message that decided the new outcome (else the old one), scrubbed. */
  message: string | null;
}

export interface UnclassifiedGroup {
  template: string;
  count: number;
  action: string;
  channel: 'ussd' | 'sms';
  sender: string | null;
}

export interface ReplayReport {
  format_version: 1;
  /** What the outcomes were compared with: each record's own, or the --baseline config's. */
  compared_with: 'records' | 'baseline';
  summary: { transactions: number; unmatched_action: number; same: number; changed: number; errors: number };
  matrix: { from: string; to: string; count: number }[];
  changes: ReplayChange[];
  unclassified: UnclassifiedGroup[];
  /** Groups beyond the limit, counted but not listed (a report cannot list a million shapes). */
  unclassified_omitted: number;
  /** Transactions whose action the config does not have, by the name or id the record gives (scrubbed). */
  unmatched: { action: string; count: number }[];
}

/** Distinct shapes kept; past this, new ones are only counted. */
const GROUP_LIMIT = 10_000;
const UNMATCHED_LIMIT = 1_000;

export class Tally {
  private transactions = 0;
  private unmatchedCount = 0;
  private same = 0;
  private errors = 0;
  private readonly moves = new Map<string, number>();
  private readonly changes: ReplayChange[] = [];
  private readonly groups = new Map<string, UnclassifiedGroup>();
  private omitted = 0;
  private readonly unmatched = new Map<string, number>();
  // The same reply comes back thousands of times: scrub and shape each text once.
  private readonly scrubbed = new BoundedCache<string, string>(50_000);
  private readonly shapes = new BoundedCache<string, string>(50_000);

  constructor(private readonly comparedWith: ReplayReport['compared_with']) {}

  unmatchedAction(name: string | null, id: string | null): void {
    this.transactions += 1;
    this.unmatchedCount += 1;
    const key = name !== null ? scrubText(name) : id !== null ? `id ${scrubText(id)}` : '(no action name or id)';
    if (this.unmatched.has(key) || this.unmatched.size < UNMATCHED_LIMIT) this.unmatched.set(key, (this.unmatched.get(key) ?? 0) + 1);
  }

  outcome(o: { record: string; action: string; from: string; to: string; message: string | null; keep: readonly string[] }): void {
    this.transactions += 1;
    if (o.to === 'error') this.errors += 1;
    if (o.from === o.to) {
      this.same += 1;
      return;
    }
    const move = `${o.from}\u0000${o.to}`;
    this.moves.set(move, (this.moves.get(move) ?? 0) + 1);
    const message = o.message === null ? null : this.scrubbed.getOrAdd(o.message, (m) => scrubText(m, o.keep));
    this.changes.push({ record: o.record, action: o.action, from: o.from, to: o.to, message });
  }

  unclassifiedMessage(o: { action: string; channel: 'ussd' | 'sms'; sender: string | null; text: string; keep: readonly string[] }): void {
    const template = this.shapes.getOrAdd(o.text, (t) => shapeOf(t, o.keep));
    const sender = o.sender === null ? null : scrubSender(o.sender);
    const key = `${o.action}\u0000${o.channel}\u0000${sender ?? ''}\u0000${template}`;
    const group = this.groups.get(key);
    if (group) group.count += 1;
    else if (this.groups.size < GROUP_LIMIT) this.groups.set(key, { template, count: 1, action: o.action, channel: o.channel, sender });
    else this.omitted += 1;
  }

  report(): ReplayReport {
    const byCount = <T extends { count: number }>(key: (x: T) => string) => (a: T, b: T) => b.count - a.count || cmp(key(a), key(b));
    return {
      format_version: 1,
      compared_with: this.comparedWith,
      summary: { transactions: this.transactions, unmatched_action: this.unmatchedCount, same: this.same, changed: this.changes.length, errors: this.errors },
      matrix: [...this.moves].map(([k, count]) => {
        const [from, to] = k.split('\u0000') as [string, string];
        return { from, to, count };
      }).sort(byCount((m) => `${m.from}\u0000${m.to}`)),
      // Records are read in a fixed order (files sorted, then by line): the changes keep it.
      changes: this.changes,
      unclassified: [...this.groups.values()].sort(byCount((g) => `${g.action}\u0000${g.channel}\u0000${g.sender ?? ''}\u0000${g.template}`)),
      unclassified_omitted: this.omitted,
      unmatched: [...this.unmatched].map(([action, count]) => ({ action, count })).sort(byCount((u) => u.action)),
    };
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
