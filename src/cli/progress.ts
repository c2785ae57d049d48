// A stateful writer to the terminal, so it lives with the CLI (src/report/ renders only).
// Progress for long work (apply). On a TTY: one status line redrawn in place with \r,
// throttled, cleared at the end; failures are printed above it as they happen so they stay on
// screen. Not on a TTY (CI logs): no \r and no ANSI, just one plain line per finished change.

import type { ChangeOutcome } from '../apply/types.js';
import type { ChangeOp } from '../plan/types.js';
import { renderOutcomeLine } from '../report/outcomes-text.js';
import { inert } from '../text/inert.js';

export interface ProgressOptions {
  stream: { write(chunk: string): unknown; columns?: number };
  tty: boolean;
  color: boolean;
  total: number;
  /** What the work is, shown while nothing is in flight, e.g. "applying". */
  label: string;
  /** Minimum time between redraws of the TTY line. Default 80 ms. */
  intervalMs?: number;
  /** Clock, injectable so tests never depend on timing. */
  now?: () => number;
}

export interface Progress {
  start(address: string, op: ChangeOp): void;
  done(outcome: ChangeOutcome): void;
  finish(): void;
}

const ING: Record<ChangeOp, string> = { create: 'creating', update: 'updating', archive: 'archiving', restore: 'restoring' };
const CLEAR = '\r\x1b[K';

export function createProgress(options: ProgressOptions): Progress {
  return options.tty ? ttyProgress(options) : logProgress(options);
}

function logProgress(options: ProgressOptions): Progress {
  return {
    start() {},
    done(outcome) {
      options.stream.write(renderOutcomeLine(outcome, { color: false }) + '\n');
    },
    finish() {},
  };
}

function ttyProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 80;
  const inflight = new Map<string, ChangeOp>();
  let finished = 0;
  let lastDraw = -Infinity;
  let drawn = false;

  const line = (): string => {
    const counter = `[${finished}/${options.total}]`;
    const current = [...inflight].at(-1);
    const text = current ? `${counter} ${ING[current[1]]} ${inert(current[0])}…` : `${counter} ${options.label}…`;
    // A line wider than the terminal wraps, and \r then redraws only its last row.
    const max = Math.max(10, (options.stream.columns ?? 80) - 1);
    return [...text].length > max ? [...text].slice(0, max - 1).join('') + '…' : text;
  };
  const draw = (force: boolean) => {
    const t = now();
    if (!force && t - lastDraw < interval) return;
    lastDraw = t;
    drawn = true;
    options.stream.write(CLEAR + line());
  };

  return {
    start(address, op) {
      inflight.set(address, op);
      draw(false);
    },
    done(outcome) {
      inflight.delete(outcome.address);
      finished++;
      if (outcome.status === 'failed') {
        options.stream.write(CLEAR + renderOutcomeLine(outcome, { color: options.color }) + '\n');
        draw(true);
        return;
      }
      draw(false);
    },
    finish() {
      if (drawn) options.stream.write(CLEAR);
      drawn = false;
    },
  };
}

/**
 * Progress of reading the live API: on a terminal, one line redrawn in place (`reading
 * the live API: 120/200 actions' parsers`), cleared when done; in a log, a plain line every
 * `everyMs` (default 5 s) while parsers are still being read, and nothing for a read that ends
 * sooner (the command's own output says when it is done). Returns the
 * callback for ReadLiveForOptions.onRead and a `finish` to call when the read is over.
 */
export function readProgress(o: { stream: ProgressOptions['stream']; tty: boolean; everyMs?: number; intervalMs?: number; now?: () => number }): { onRead: (done: number, total: number) => void; finish: () => void } {
  const now = o.now ?? Date.now;
  // The clock starts when the lists are in (the first call): a wait before them (a 429's
  // Retry-After) is said by the retry notice, not here.
  let started: number | undefined;
  const every = o.everyMs ?? 5000;
  const interval = o.intervalMs ?? 80;
  let last = -Infinity;
  let drawn = false;
  const text = (done: number, total: number) => `reading the live API: ${done}/${total} actions' parsers`;
  return {
    onRead(done, total) {
      const t = now();
      if (started === undefined) {
        started = t;
        if (!o.tty) last = t;
      }
      if (total === 0) return;
      if (o.tty) {
        if (t - last < interval && done < total) return;
        last = t;
        o.stream.write(`${CLEAR}${text(done, total)}…`);
        drawn = true;
      } else if (done < total && t - last >= every) {
        last = t;
        o.stream.write(`${text(done, total)} (${Math.round((t - started) / 1000)} s)\n`);
      }
    },
    finish() {
      if (drawn) o.stream.write(CLEAR);
      drawn = false;
    },
  };
}
