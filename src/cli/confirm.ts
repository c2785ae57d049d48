// Asking before writing: on a terminal the user types `yes` (anything else cancels), like
// Terraform. Without a terminal nobody can answer, so the caller refuses unless --yes was given.

import { createInterface } from 'node:readline';
import type { Io } from './io.js';

/** Resolves true only for the exact answer `yes`. End of input or an abort count as no. */
export function askYes(io: Io, question: string, out: NodeJS.WritableStream, signal?: AbortSignal): Promise<boolean> {
  // An abort that came before the question would never fire 'abort' again: the prompt would hang.
  if (signal?.aborted) return Promise.resolve(false);
  out.write(question);
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, terminal: false });
    let settled = false;
    const finish = (answer: boolean) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      rl.close();
      resolve(answer);
    };
    const onAbort = () => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    rl.once('line', (line) => finish(line.trim() === 'yes'));
    rl.once('close', () => finish(false));
  });
}
