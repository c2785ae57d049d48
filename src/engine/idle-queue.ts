// Work that may run while the event loop would otherwise wait on the network, and is otherwise
// left for later. A plan compares each action as its parsers arrive: with a slow API
// the loop is idle most of the time between answers, and that work is free there.
//
// When it runs matters more than how much there is. The requests of a read go out in lanes that
// keep in step: behind an API's latency, the lanes' answers come in a burst, then nothing for
// most of the latency. Work done between the answers of such a burst delays the next request of
// every lane behind it, every burst (measured: run at each answer, or in the turn after it, the
// comparison cost the read more than it saved at the end). So items run only once no answer has
// come for a quiet spell, a short slice at a time; with a fast API that spell never comes, and
// what is left is run by `drain()` at the end, or dropped by `abandon()` when the caller does it
// as cheaply itself (a plan: compare.ts finish() compares what was not compared early).

/** How long without a new item before queued ones run: the loop is then waiting. */
const QUIET_MS = 3;
/** The longest the queue runs at a time, so that a backlog does not hold up the next answers. */
const SLICE_MS = 2;

export class IdleQueue<T> {
  private readonly queue: T[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private failure: { error: unknown } | undefined;
  private cancelled = false;

  constructor(private readonly work: (item: T) => void, private readonly options = { quietMs: QUIET_MS, sliceMs: SLICE_MS }) {}

  /** Queues an item; queued items run once nothing has been pushed for a quiet spell. */
  push(item: T): void {
    if (this.cancelled) return;
    this.queue.push(item);
    if (this.timer === undefined) this.arm();
    else this.timer.refresh();
  }

  /** Runs every item still queued, in order; throws what an item threw in a slice, as if it ran now. */
  drain(): void {
    this.cancelTimer();
    if (this.failure) throw this.failure.error;
    while (this.next < this.queue.length) this.runNext();
  }

  /**
   * Drops what is still queued, the work being done elsewhere as cheaply (throws what an item
   * threw in a slice, as drain() would).
   */
  abandon(): void {
    this.cancel();
    if (this.failure) throw this.failure.error;
  }

  /** Drops what is queued (the work is no longer wanted: the read failed). */
  cancel(): void {
    this.cancelled = true;
    this.cancelTimer();
    this.queue.length = 0;
    this.next = 0;
  }

  /** How many items are still queued. */
  get pending(): number {
    return this.queue.length - this.next;
  }

  private slice(): void {
    this.timer = undefined;
    if (this.next >= this.queue.length) return;
    const until = performance.now() + this.options.sliceMs;
    try {
      // At least one item per slice, however short the slice.
      do this.runNext();
      while (this.next < this.queue.length && performance.now() < until);
    } catch (error) {
      // Not thrown from a timer (that would end the process): drain() throws it, where the
      // caller would have met it had the item run at the end.
      this.failure = { error };
      return;
    }
    // An item may have pushed another, and armed the timer already.
    if (this.next < this.queue.length && this.timer === undefined) this.arm();
  }

  /** The timer never keeps the process alive by itself: whoever queues is waiting on something else. */
  private arm(): void {
    this.timer = setTimeout(() => this.slice(), this.options.quietMs).unref();
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private runNext(): void {
    const item = this.queue[this.next]!;
    this.queue[this.next++] = undefined as T; // let it go
    this.work(item);
  }
}
