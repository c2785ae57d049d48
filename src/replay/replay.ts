// menuctl replay's pipeline (docs/replay.md): records -> the action each belongs to -> its
// messages classified under the config (and the baseline) -> outcomes compared -> a report.
// Records are taken a chunk at a time: the chunk's distinct new messages are classified together
// (classifier.ts), then its transactions are counted in record order, so memory holds one chunk,
// the caches and the report, never the whole traffic.

import { actionAddress } from '../model/address.js';
import type { DesiredAction } from '../model/types.js';
import type { Message } from '../classify/classify.js';
import type { Classified, ReplayClassifier, Request } from './classifier.js';
import type { ActionIndex } from './match.js';
import { decide, NONE, recordedOutcome, type TransactionOutcome } from './outcome.js';
import type { ReadRecord } from './read-records.js';
import { Tally, type ReplayReport } from './tally.js';
import type { ReplayTransaction } from './transaction.js';

export interface ReplayOptions {
  records: AsyncIterable<ReadRecord>;
  /** The config under test. */
  head: ActionIndex;
  /** The config to compare with; null: each record's own outcome. */
  baseline: ActionIndex | null;
  classifier: ReplayClassifier;
  /** Transactions per chunk. */
  chunk?: number;
}

interface Pending {
  where: string;
  t: ReplayTransaction;
  messages: Message[];
  head: DesiredAction | null;
  base: DesiredAction | null;
}

export async function replay(o: ReplayOptions): Promise<ReplayReport> {
  const tally = new Tally(o.baseline ? 'baseline' : 'records');
  const size = o.chunk ?? 2_000;
  let chunk: Pending[] = [];
  for await (const record of o.records) {
    for (const t of record.transactions) {
      chunk.push({ where: record.where, t, messages: messagesOf(t), head: o.head.find(t), base: o.baseline?.find(t) ?? null });
    }
    if (chunk.length >= size) {
      await settle(chunk, o, tally);
      chunk = [];
    }
  }
  await settle(chunk, o, tally);
  return tally.report();
}

/** The last USSD message by the ussd parsers, then each SMS by the sms parsers (CONTRACT.md "Sessions"). */
function messagesOf(t: ReplayTransaction): Message[] {
  return [
    ...(t.reply !== null ? [{ text: t.reply, channel: 'ussd' as const }] : []),
    ...t.sms.map((m) => ({ text: m.message, channel: 'sms' as const, sender: m.sender })),
  ];
}

async function settle(chunk: readonly Pending[], o: ReplayOptions, tally: Tally): Promise<void> {
  if (chunk.length === 0) return;
  const requests: Request[] = [];
  for (const p of chunk) {
    for (const action of [p.head, p.base]) {
      if (action) for (const message of p.messages) requests.push({ parsers: action.parsers, message });
    }
  }
  const results = await o.classifier.classifyAll(requests);
  const classify = (action: DesiredAction, p: Pending): Classified[] =>
    p.messages.map((message) => results.get(o.classifier.keyOf({ parsers: action.parsers, message }))!);
  for (const p of chunk) count(p, o, tally, classify);
}

function count(p: Pending, o: ReplayOptions, tally: Tally, classify: (a: DesiredAction, p: Pending) => Classified[]): void {
  const action = p.head ?? p.base;
  if (action === null) {
    tally.unmatchedAction(p.t.actionName, p.t.actionId);
    return;
  }
  const headClassified = p.head ? classify(p.head, p) : null;
  const to: TransactionOutcome = headClassified ? decide(headClassified) : { label: NONE, deciding: null };
  const baseOutcome: TransactionOutcome | null = o.baseline ? (p.base ? decide(classify(p.base, p)) : { label: NONE, deciding: null }) : null;
  const from = baseOutcome ? baseOutcome.label : recordedOutcome(p.t);
  // Sender ids are the operator's, never a person's: they survive the name rules (as in sessions import).
  const keep = [...new Set(p.t.sms.map((m) => m.sender))];
  const decidingIndex = to.deciding ?? baseOutcome?.deciding ?? (p.messages.length > 0 ? p.messages.length - 1 : null);
  tally.outcome({
    record: p.where,
    action: actionAddress(action.name),
    from,
    to: to.label,
    message: decidingIndex === null ? null : p.messages[decidingIndex]!.text,
    keep,
  });
  if (!p.head || !headClassified) return;
  headClassified.forEach((c, i) => {
    if (c === null || c.matches.length > 0) return;
    const m = p.messages[i]!;
    tally.unclassifiedMessage({ action: actionAddress(p.head!.name), channel: m.channel === 'sms' ? 'sms' : 'ussd', sender: m.sender ?? null, text: m.text, keep });
  });
}
