// The no-duplicate rule for creates. A POST is not idempotent: when its answer is lost
// (timeout, connection reset after sending, 502/503/504) the resource may exist already.
// So before sending it again, look the resource up by its identity (action: name; parser:
// category within its action; app: package_name) and take it if it is there. Each create is
// one request, so a process killed outright leaves at most one resource per identity, which
// the next plan matches by identity too.

import { isUnknownOutcome } from './errors.js';

export interface RecoveryPolicy {
  /** How many times one create may be sent in total (each time after a lookup found nothing). */
  maxSends: number;
  /** First backoff before a lookup; doubles each time, jittered, capped at 2 s. */
  baseDelayMs: number;
}

export const DEFAULT_RECOVERY: RecoveryPolicy = { maxSends: 6, baseDelayMs: 100 };
const LOOKUP_TRIES = 3;
const MAX_DELAY_MS = 2000;

export interface CreateOnceArgs<T> {
  /** What is being created, for messages: an address. */
  address: string;
  create: () => Promise<T>;
  /** The live resource with this identity; null when there is none; undefined when it cannot be told. */
  lookup: () => Promise<T | null | undefined>;
  policy: RecoveryPolicy;
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
    let lost: unknown;
    try {
      return { value: await args.create(), recovered: false };
    } catch (err) {
      if (!isUnknownOutcome(err)) throw err;
      lost = err;
    }
    const found = await lookupWithRetry(args, sent);
    if (found) return { value: found, recovered: true };
    if (sent >= policy.maxSends) {
      throw new Error(
        `${args.address} was not created: ${sent} attempts lost their answer and it was not found afterwards ` +
          `(last: ${messageOf(lost)}); run apply again`,
      );
    }
  }
}

async function lookupWithRetry<T>(args: CreateOnceArgs<T>, sent: number): Promise<T | null> {
  let last: unknown;
  for (let i = 0; i < LOOKUP_TRIES; i++) {
    // Waiting first gives a write that is still in flight on the server time to land before we look.
    await sleep(backoff(args.policy.baseDelayMs, sent - 1 + i));
    try {
      const found = await args.lookup();
      if (found === undefined) {
        throw new UnknownOutcomeError(
          `${args.address}: the create's answer was lost and the API cannot list these resources to check ` +
            `whether it exists; run \`menuctl plan\` (pin the id with \`id:\` if it was created) before applying again`,
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
  const capped = Math.min(MAX_DELAY_MS, base * 2 ** exponent);
  return capped / 2 + Math.random() * (capped / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
