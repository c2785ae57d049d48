// What apply does with the first SIGINT/SIGTERM (docs/apply.md "Interrupting").
// Before the first write (reading, planning, asking) the run's requests are cancelled at once:
// there is nothing to save. While changes are being carried out, no new change starts, and the
// requests in flight get GRACE_MS to be answered, so a change the API confirms in that time is
// recorded (and a created app's token, which is shown once, is kept); then they are cancelled,
// so an API that never answers cannot hold the run. A second signal exits at once (main.ts).

import type { CliContext } from './context.js';

/** How long requests in flight may still be answered after the first signal during apply. */
export const GRACE_MS = 2_000;

export interface RunInterrupt {
  /** Given to the API client: aborted, it cancels requests in flight and sends nothing more. */
  signal: AbortSignal;
  /** From now on a signal lets the `inFlight()` changes have GRACE_MS before cancelling them. */
  applying(inFlight: () => number): void;
}

export function runInterrupt(ctx: CliContext, graceMs: number = GRACE_MS): RunInterrupt {
  const cancel = new AbortController();
  let inFlight: (() => number) | null = null;
  const onSignal = () => {
    const n = inFlight?.() ?? 0;
    if (n === 0) {
      cancel.abort();
      return;
    }
    ctx.io.stderr.write(
      `menuctl: interrupted: no new change is started; ${n === 1 ? 'the change in flight gets' : `the ${n} changes in flight get`} ` +
        `${graceMs / 1000} s to be answered, then ${n === 1 ? 'is' : 'are'} cancelled (a second signal stops at once)\n`,
    );
    setTimeout(() => cancel.abort(), graceMs).unref();
  };
  if (ctx.signal.aborted) cancel.abort();
  else ctx.signal.addEventListener('abort', onSignal, { once: true });
  return {
    signal: cancel.signal,
    applying(count) { inFlight = count; },
  };
}
