// A transaction's outcome under a config, by the rule sessions follow (CONTRACT.md "Sessions",
// src/sessions/run-sessions.ts outcomeOf): the last message a parser matched decides, its first
// matching parser in config order wins; `none` when nothing matched; `error` when the engine
// cannot say (a parser that cannot be evaluated faithfully could have changed it, or the regexes
// ran out of time), never a guess. Pure.

import { outcomeOf } from '../sessions/run-sessions.js';
import type { Classified } from './classifier.js';

/** A recorded transaction's outcome under one config (not apply's ChangeOutcome). */
export interface TransactionOutcome {
  /** `STATUS/CATEGORY`, `none` or `error`. */
  label: string;
  /** Index of the message that decided it (into the transaction's messages), null for none. */
  deciding: number | null;
}

export const NONE = 'none';
export const ERROR = 'error';

export function decide(classified: readonly Classified[]): TransactionOutcome {
  if (classified.some((c) => c === null)) return { label: ERROR, deciding: null };
  const list = classified as Exclude<Classified, null>[];
  const o = outcomeOf(list);
  const winner = o.matches[0] ?? null;
  if (o.unevaluable.some((u) => winner === null || u.index < winner.index)) return { label: ERROR, deciding: null };
  if (winner === null) return { label: NONE, deciding: null };
  let deciding = -1;
  list.forEach((c, i) => { if (c.matches.length > 0) deciding = i; });
  return { label: `${winner.status}/${winner.category}`, deciding };
}

/** What Hover recorded: `STATUS/CATEGORY`, `none` without a category (CONTRACT.md "Replay"). */
export function recordedOutcome(t: { status: string | null; category: string | null }): string {
  if (t.category === null) return NONE;
  return `${t.status ?? 'unknown'}/${t.category}`;
}
