// Runs regexes in one worker thread with a time budget per batch, so a pattern that backtracks
// catastrophically cannot hang `menuctl test` (or CI): the worker is terminated and replaced.
// The worker only executes already-translated JS sources; all translation stays in this thread.
import { Worker } from 'node:worker_threads';

export interface ExecJob {
  source: string;
  text: string;
  groups: string[];
}

export type BatchResult = { ok: true; results: (Record<string, string> | null)[] } | { ok: false; timedOut: true };

// Evaluated as a CommonJS script (eval: true), so it needs no file on disk: the same code runs
// from dist/ and from the TypeScript sources under vitest.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
// Compiled regexes by source, the most recent 1,024: unbounded, analyze of a big config kept
// every one alive.
const cache = new Map();
parentPort.on('message', ({ id, jobs }) => {
  const results = jobs.map(({ source, text, groups }) => {
    let re = cache.get(source);
    if (re) cache.delete(source);
    else {
      re = new RegExp(source, 'u');
      if (cache.size >= 1024) cache.delete(cache.keys().next().value);
    }
    cache.set(source, re);
    const m = re.exec(text);
    if (!m) return null;
    const values = {};
    for (const name of groups) if (m.groups && m.groups[name] !== undefined) values[name] = m.groups[name];
    return values;
  });
  parentPort.postMessage({ id, results });
});
`;

export class RegexSandbox {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 0;

  constructor(private readonly timeoutMs: number) {}

  /** The whole budget of a batch, in ms. */
  get budgetMs(): number {
    return this.timeoutMs;
  }

  private start(): Promise<void> {
    if (!this.ready) {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      this.worker = worker;
      this.ready = new Promise((resolve, reject) => {
        worker.once('online', () => resolve());
        worker.once('error', reject);
      });
    }
    return this.ready;
  }

  /**
   * Runs one batch (one fixture's parsers); the budget (the sandbox's, or `budgetMs`) starts once
   * the worker is running.
   */
  async run(jobs: ExecJob[], budgetMs: number = this.timeoutMs): Promise<BatchResult> {
    if (jobs.length === 0) return { ok: true, results: [] };
    await this.start();
    const worker = this.worker!;
    const id = this.nextId++;
    return new Promise<BatchResult>((resolve, reject) => {
      const onMessage = (msg: { id: number; results: (Record<string, string> | null)[] }) => {
        if (msg.id !== id) return;
        cleanup();
        resolve({ ok: true, results: msg.results });
      };
      const onError = (err: Error) => { cleanup(); this.reset(); reject(err); };
      const timer = setTimeout(() => {
        cleanup();
        this.reset();
        resolve({ ok: false, timedOut: true });
      }, budgetMs);
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, jobs });
    });
  }

  private reset(): void {
    void this.worker?.terminate();
    this.worker = null;
    this.ready = null;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }
}
