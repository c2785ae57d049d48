// Classifies recorded messages with the engine `menuctl test` uses for sessions (prepare/collect in
// classify.ts, the regex sandbox, classifyInSandbox for anything slow), each distinct message once
// per parser list, and many messages per round trip to the sandbox's worker: a year of traffic
// repeats the same replies, and one round trip per message would cost more than the regexes.

import { BoundedCache } from '../classify/bounded-cache.js';
import { collect, prepare, type Classification, type Message, type Prepared } from '../classify/classify.js';
import { classifyInSandbox } from '../classify/run-fixtures.js';
import { RegexSandbox, type ExecJob } from '../classify/sandbox.js';
import type { DesiredParser } from '../model/types.js';

/** null: the regexes ran out of time on this message (the transaction's outcome is an error). */
export type Classified = Classification | null;

export interface Request {
  parsers: readonly DesiredParser[];
  message: Message;
}

/** Distinct messages kept classified; well above what one chunk of records asks for. */
const CACHE_LIMIT = 200_000;
/** Regex runs sent to the worker in one message. */
const BATCH_JOBS = 2_000;

export class ReplayClassifier {
  private readonly sandbox: RegexSandbox;
  private readonly cache = new BoundedCache<string, Classified>(CACHE_LIMIT);
  private readonly listIds = new WeakMap<readonly DesiredParser[], number>();
  private nextListId = 0;
  /** How many distinct messages went through the engine (the rest came from the cache). */
  classifiedCount = 0;

  constructor(timeoutMs: number) {
    this.sandbox = new RegexSandbox(timeoutMs);
  }

  keyOf(r: Request): string {
    let id = this.listIds.get(r.parsers);
    if (id === undefined) this.listIds.set(r.parsers, (id = this.nextListId++));
    return `${id}\u0000${r.message.channel}\u0000${r.message.sender ?? ''}\u0000${r.message.text}`;
  }

  /** Every request's classification, by keyOf; the new ones classified in batches. */
  async classifyAll(requests: Iterable<Request>): Promise<Map<string, Classified>> {
    const out = new Map<string, Classified>();
    const todo: { key: string; request: Request; prepared: Prepared }[] = [];
    for (const r of requests) {
      const key = this.keyOf(r);
      if (out.has(key)) continue;
      const hit = this.cache.get(key);
      if (hit !== undefined) {
        out.set(key, hit);
        continue;
      }
      out.set(key, null);
      todo.push({ key, request: r, prepared: prepare(r.message, r.parsers) });
    }
    let start = 0;
    while (start < todo.length) {
      let end = start;
      let jobs = 0;
      while (end < todo.length && (end === start || jobs + todo[end]!.prepared.runnable.length <= BATCH_JOBS)) {
        jobs += todo[end]!.prepared.runnable.length;
        end += 1;
      }
      await this.runBatch(todo.slice(start, end), out);
      start = end;
    }
    this.classifiedCount += todo.length;
    return out;
  }

  private async runBatch(items: { key: string; request: Request; prepared: Prepared }[], out: Map<string, Classified>): Promise<void> {
    const jobs: ExecJob[] = items.flatMap(({ request, prepared }) =>
      prepared.runnable.map((r) => ({ source: r.regex.source, text: request.message.text, groups: r.groups })));
    const batch = await this.sandbox.run(jobs);
    let k = 0;
    for (const item of items) {
      let c: Classified;
      if (batch.ok) {
        const n = item.prepared.runnable.length;
        c = collect(item.prepared, batch.results.slice(k, k + n));
        k += n;
      } else {
        // Something in the batch backtracks: each message alone, with the automaton's help and
        // its own budget, as `menuctl test` runs it.
        c = await classifyInSandbox(this.sandbox, item.request.message, item.request.parsers);
      }
      this.cache.set(item.key, c);
      out.set(item.key, c);
    }
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}
