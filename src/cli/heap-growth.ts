// How far V8 lets the heap grow past what the last full collection kept, for the commands that run
// once and exit. V8 picks that factor itself, between 1.1 and the most its heap limit allows: 4x
// once the limit is 2 GB or more (Node's default on a machine with 8 GB or more), 1.3-2x under
// it. For a command whose live set is the config and the live state, 4x is most of the peak,
// and where its last full collection fell decided it. A fixed 1.5x keeps the peak near the live
// size for a little more wall time (docs/benchmarks.md "memory" has the figures). The heap limit
// itself is untouched, so a config too big for a cap still runs.
//
// The long-running commands (serve, demo) keep V8's choice: their garbage is request-shaped, and
// a server's throughput is what the factor trades away. `node --heap-growing-percent=N menuctl`
// keeps the user's own, 0 V8's choice (NODE_OPTIONS does not accept the flag). Node leaves V8's
// flags unfrozen so that v8.setFlagsFromString works (node.cc); test/cli/heap-growth.test.ts
// reads the factor V8 used from --trace-gc-verbose, so a Node where this stops working fails it.

import { setFlagsFromString } from 'node:v8';

/** The growth allowed past the live size after a full collection: 1.5x. */
export const HEAP_GROWING_PERCENT = 50;

/** Commands that keep V8's own factor (they serve until stopped). */
const LONG_RUNNING = new Set(['serve', 'demo']);

/** Whether a run of `command` (started with these Node flags) should fix the heap's growth. */
export function shouldTightenHeap(command: string | undefined, execArgv: readonly string[]): boolean {
  if (command !== undefined && LONG_RUNNING.has(command)) return false;
  return !execArgv.some((a) => /^--heap[-_]growing[-_]percent(=|$)/.test(a));
}

/**
 * Fixes the heap's growth factor for this process (main.ts, before the command loads). The flag is
 * read at every full collection, so setting it at run time takes effect from the next one.
 */
export function tightenHeapGrowth(command: string | undefined, execArgv: readonly string[] = process.execArgv): boolean {
  if (!shouldTightenHeap(command, execArgv)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
