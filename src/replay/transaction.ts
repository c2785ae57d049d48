// One Hover transaction as `menuctl replay` needs it (docs/replay.md): which action, what Hover
// recorded as the outcome, the last USSD message and every SMS (hits and misses) in the order
// they arrived. Read as tolerantly as `sessions import` reads a record (hover-record.ts): fields
// Hover adds are ignored, the ones it omits are null or empty. `meta.secret`, `device_id` and the
// relationships are never read. Pure.

import { attributesOf, pick, SCREENS, SMS, strings, text } from '../sessions/hover-record.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ReplaySms { sender: string; message: string }

export interface ReplayTransaction {
  /** The action's public id, as the record names it. */
  actionId: string | null;
  actionName: string | null;
  status: string | null;
  category: string | null;
  /** The last USSD message (the reply the ussd parsers read); null when none was recorded. */
  reply: string | null;
  /** sms_hits and sms_misses, in timestamp order (those without one after, as listed). */
  sms: ReplaySms[];
}

/** Field names under which the SMS's arrival time is seen (epoch ms or s, or ISO text). */
const SMS_TIME = ['timestamp', 'received_at', 'created_at', 'date', 'time'];

/**
 * The transactions in one parsed JSON document; a document with none is a broken record (the
 * caller names its file:line). A transaction needs something to classify: a USSD message or an SMS.
 */
export function replayTransactions(doc: unknown): ReplayTransaction[] | string {
  const all = attributesOf(doc);
  if (all.length === 0) {
    return 'no transaction: expected a Hover webhook body ({ "data": { "attributes": { "session_messages": [...] } } }) or its "attributes" object';
  }
  const out: ReplayTransaction[] = [];
  for (const attrs of all) {
    const t = transactionOf(attrs);
    if (t.reply === null && t.sms.length === 0) {
      return `a transaction without messages: expected one of ${[...SCREENS, 'sms_hits', 'sms_misses'].map((k) => `"${k}"`).join(', ')}`;
    }
    out.push(t);
  }
  return out;
}

function transactionOf(attrs: Obj): ReplayTransaction {
  const screens = strings(pick(attrs, SCREENS));
  const hits = pick(attrs, SMS);
  return {
    actionId: text(attrs.action_public_id) ?? text(attrs.action_id) ?? text(attrs.custom_action_public_id),
    actionName: text(attrs.action_name),
    status: text(attrs.status),
    category: text(attrs.category) ?? text(attrs.status_reason),
    reply: screens.length > 0 ? screens[screens.length - 1]! : null,
    sms: inTimeOrder([...smsEntries(hits), ...smsEntries(attrs.sms_misses)]),
  };
}

interface Timed extends ReplaySms { at: number }

function smsEntries(v: unknown): Timed[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((m) => {
    if (!isObj(m)) return [];
    const message = text(m.message) ?? text(m.msg) ?? text(m.text) ?? text(m.body);
    const sender = text(m.sender) ?? text(m.from) ?? text(m.address);
    return message !== null && sender !== null ? [{ sender, message, at: timeOf(pick(m, SMS_TIME)) }] : [];
  });
}

function timeOf(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v < 1e11 ? v * 1000 : v; // seconds or ms
  if (typeof v === 'string' && v.trim() !== '') {
    const n = /^\d+(\.\d+)?$/.test(v.trim()) ? timeOf(Number(v)) : Date.parse(v);
    return Number.isFinite(n) ? n : Infinity;
  }
  return Infinity;
}

/** Stable: equal times (and the untimed, last) keep hits before misses, each as listed. */
function inTimeOrder(list: Timed[]): ReplaySms[] {
  return list
    .map((m, i) => ({ m, i }))
    .sort((a, b) => (a.m.at === b.m.at ? a.i - b.i : a.m.at < b.m.at ? -1 : 1))
    .map(({ m }) => ({ sender: m.sender, message: m.message }));
}
