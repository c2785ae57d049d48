// A transaction record as Hover's webhook delivers it, read tolerantly (docs/sessions.md
// "Importing"): the webhook body `{ meta, data: { attributes } }`, `data` as a list of such
// records, the attributes object alone, or a list of those. Field names vary between SDK versions
// and exports, so each field is looked up under the names seen in the wild. `meta.secret`,
// `device_id` and the relationships are never read. Pure.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface HoverSms { sender: string; message: string }

export interface HoverTransaction {
  actionName: string | null;
  /** The live action's public id, to find it in a config by its `id:` pin. */
  actionPublicId: string | null;
  status: string | null;
  category: string | null;
  initiatedAt: string | null;
  /** What the network showed, in order (the first answers the dialled code). */
  screens: string[];
  /** What the device sent after each screen but the last ("(pin)" for the PIN). */
  valuesEntered: string[];
  /** Values the app passed for the action's variables, by name. */
  inputExtras: Record<string, string>;
  parsedVariables: Record<string, string>;
  /** SMS a parser matched (sms_hits). */
  sms: HoverSms[];
  /** SMS from a watched sender that no parser matched: counted, not imported. */
  smsMisses: number;
}

export const SCREENS = ['session_messages', 'ussd_messages', 'messages'];
const VALUES = ['values_entered', 'input_values', 'entered_values'];
export const SMS = ['sms_hits', 'smses', 'sms_messages', 'sms'];

export class RecordError extends Error {}

/** The transactions in a parsed JSON document; throws RecordError saying what was expected. */
export function readHoverRecords(doc: unknown): HoverTransaction[] {
  const records = attributesOf(doc);
  if (records.length === 0) {
    throw new RecordError('no transaction found: expected a Hover webhook body ({ "data": { "attributes": { "session_messages": [...] } } }), its "attributes" object, or a list of them.');
  }
  return records.map((attrs, i) => {
    const screensField = SCREENS.find((k) => attrs[k] !== undefined && attrs[k] !== null);
    const screens = strings(pick(attrs, SCREENS));
    const sms = smsList(pick(attrs, SMS));
    // An SMS-only transaction (a push or STK action, or a session Hover did not record) has an
    // empty list of screens: it imports as parser fixtures for its SMS (import-session.ts).
    if (screens.length === 0 && sms.length === 0) {
      throw new RecordError(screensField === undefined
        ? `transaction ${i + 1}: no USSD screens and no SMS: expected one of ${SCREENS.map((k) => `"${k}"`).join(', ')} as a list of strings, or SMS in "sms_hits".`
        : `transaction ${i + 1}: "${screensField}" is empty and there are no SMS in "sms_hits": nothing to import.`);
    }
    const missesRaw = attrs.sms_misses;
    return {
      actionName: text(attrs.action_name),
      actionPublicId: text(attrs.action_public_id),
      status: text(attrs.status),
      category: text(attrs.category) ?? text(attrs.status_reason),
      initiatedAt: text(attrs.initiated_at) ?? text(attrs.created_at),
      screens,
      valuesEntered: strings(pick(attrs, VALUES)),
      inputExtras: stringMap(attrs.input_extras),
      parsedVariables: stringMap(attrs.parsed_variables),
      sms,
      smsMisses: Array.isArray(missesRaw) ? missesRaw.length : 0,
    };
  });
}

/** The attributes object of each transaction in a parsed document (also read by menuctl replay). */
export function attributesOf(doc: unknown): Obj[] {
  if (Array.isArray(doc)) return doc.flatMap(attributesOf);
  if (!isObj(doc)) return [];
  if (doc.data !== undefined) return attributesOf(doc.data);
  if (isObj(doc.attributes)) return [doc.attributes];
  return SCREENS.some((k) => k in doc) ? [doc] : [];
}

export function pick(o: Obj, names: readonly string[]): unknown {
  for (const n of names) if (o[n] !== undefined && o[n] !== null) return o[n];
  return undefined;
}

export function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
}

export function strings(v: unknown): string[] {
  if (typeof v === 'string') return v === '' ? [] : [v];
  return Array.isArray(v) ? v.flatMap((x) => (isObj(x) ? text(x.text ?? x.message) : text(x)) ?? []) : [];
}

/** The Hover SDK models input_extras and parsed_variables as JSON text; exports keep either form. */
function jsonText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

function stringMap(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const v = jsonText(raw);
  if (!isObj(v)) return out;
  for (const [k, x] of Object.entries(v)) {
    const t = text(x);
    if (t !== null) Object.defineProperty(out, k, { value: t, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function smsList(v: unknown): HoverSms[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((m) => {
    if (!isObj(m)) return [];
    const message = text(m.message) ?? text(m.msg) ?? text(m.text) ?? text(m.body);
    const sender = text(m.sender) ?? text(m.from) ?? text(m.address);
    return message !== null && sender !== null ? [{ sender, message }] : [];
  });
}
