// The no-duplicate rule for creates. A POST is not idempotent: when its answer is lost
// (timeout, connection reset after sending, 502/503/504) the resource may exist already.
// So before sending it again, look the resource up by its identity (action: name; parser:
// category within its action; app: package_name) and take it if it is there. Each create is
// one request, so a process killed outright leaves at most one resource per identity, which
// the next plan matches by identity too.

import { setTimeout as delay } from 'node:timers/promises';
import { backoffDelay, DEFAULT_RETRY_POLICY } from '../api/retry.js';
import { isUnknownOutcome } from './errors.js';

export interface RecoveryPolicy {
  /** How many times one create may be sent in total (each time after a lookup found nothing). */
  maxSends: number;
  /** First backoff before a lookup; doubles each time, full jitter (api/retry.ts), capped at 2 s. */
  baseDelayMs: number;
}

// Every send that gets a 502/503/504 or loses its answer counts (a POST is never re-sent blindly
// by the client): at 30% 503s and 20% resets, 44% of sends count, and 20 of them in a row happen
// once in ~10^7 creates, where 6 failed one create in 140.
export const DEFAULT_RECOVERY: RecoveryPolicy = { maxSends: 20, baseDelayMs: 100 };
const LOOKUP_TRIES = 3;
const MAX_DELAY_MS = 2000;

export interface CreateOnceArgs<T> {
  /** What is being created, for messages: an address. */
  address: string;
  create: () => Promise<T>;
  /** The live resource with this identity; null when there is none; undefined when it cannot be told. */
  lookup: () => Promise<T | null | undefined>;
  policy: RecoveryPolicy;
  /** Stops the recovery (no new send or lookup, no further waiting) after SIGINT. */
  signal?: AbortSignal;
}

export interface Created<T> {
  value: T;
  /** Found by identity after an answer was lost, rather than created by an answered request. */
  recovered: boolean;
}

/** The create failed in a way that leaves it unknown whether it exists: the next plan will tell. */
export class UnknownOutcomeError extends Error {
  readonly outcome = 'unknown';
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'UnknownOutcomeError';
  }
}

export async function createOnce<T>(args: CreateOnceArgs<T>): Promise<Created<T>> {
  const { policy } = args;
  for (let sent = 1; ; sent++) {
    // The first send is not checked: apply lets a change that has started finish (apply.ts).
    if (sent > 1 && args.signal?.aborted) throw interruptedAfterLoss(args.address);
    let lost: unknown;
    try {
      return { value: await args.create(), recovered: false };
    } catch (err) {
      if (!isUnknownOutcome(err)) throw err;
      // Lost to the interrupt (cli/interrupt.ts cancels requests in flight): no lookup now.
      if (args.signal?.aborted) throw cancelledCreate(args.address, err);
      lost = err;
    }
    const found = await lookupWithRetry(args, sent, lost);
    if (found) return { value: found, recovered: true };
    if (sent >= policy.maxSends) {
      throw new Error(
        `${args.address} was not created: ${sent} attempts lost their answer and it was not found afterwards ` +
          `(last: ${messageOf(lost)}); run apply again`,
      );
    }
  }
}

async function lookupWithRetry<T>(args: CreateOnceArgs<T>, sent: number, lost: unknown): Promise<T | null> {
  let last: unknown;
  for (let i = 0; i < LOOKUP_TRIES; i++) {
    // Waiting first gives a write that is still in flight on the server time to land before we look.
    await sleep(backoff(args.policy.baseDelayMs, sent - 1 + i), args.signal);
    if (args.signal?.aborted) throw interruptedAfterLoss(args.address);
    try {
      const found = await args.lookup();
      if (found === undefined) {
        throw new UnknownOutcomeError(
          `${args.address}: the create's answer was lost (${messageOf(lost)}) and the API cannot list these resources to check ` +
            `whether it exists; if it was created, adopt it with \`menuctl import '${args.address}' ID\`, else apply again with \`--recreate '${args.address}'\``,
          lost,
        );
      }
      return found;
    } catch (err) {
      if (err instanceof UnknownOutcomeError) throw err;
      last = err;
    }
  }
  throw new UnknownOutcomeError(
    `${args.address}: the create's answer was lost and checking whether it exists failed (${messageOf(last)}); ` +
      `run \`menuctl plan\` to see the truth, then apply again`,
    last,
  );
}

function backoff(base: number, exponent: number): number {
  return backoffDelay(exponent, { ...DEFAULT_RETRY_POLICY, baseMs: base, capMs: MAX_DELAY_MS }, Math.random);
}

/** Resolves early (never rejects) when the signal aborts; the caller checks the signal next. */
async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (err) {
    if (!signal?.aborted) throw err;
  }
}

function cancelledCreate(address: string, cause: unknown): UnknownOutcomeError {
  return new UnknownOutcomeError(
    `${address}: interrupted before the API answered the create (${messageOf(cause)}): it may or may not exist; ` +
      'run `menuctl plan` to see, then apply again',
    cause,
  );
}

function interruptedAfterLoss(address: string): UnknownOutcomeError {
  return new UnknownOutcomeError(
    `${address}: interrupted while checking whether a create whose answer was lost happened; ` +
      `run \`menuctl plan\` to see whether it exists, then apply again`,
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
