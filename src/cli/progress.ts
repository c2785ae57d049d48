// A stateful writer to the terminal, so it lives with the CLI (src/report/ renders only).
// Progress for long work (apply). On a TTY: one status line redrawn in place with \r,
// throttled, cleared at the end; failures are printed above it as they happen so they stay on
// screen. Not on a TTY (CI logs): no \r and no ANSI, just one plain line per finished change.

import type { Outcome } from '../apply/types.js';
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
  done(outcome: Outcome): void;
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
