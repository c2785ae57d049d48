// The parser's fields, declared once (model/kinds/fields.ts says what an entry means; the kind's
// types, canonical form, bodies, paths, plan JSON, answer, config reader, export and settled
// getters are made from this table). A field added here, and in schemas/menuctl.strict.schema.json
// for the config, reaches every stage; the reference server (src/server/) declares its own.

import { choice, fieldTable, text, textOrNull } from './fields.js';

export const PARSER_STATUSES = ['succeeded', 'failed', 'pending'] as const;
export type ParserStatus = (typeof PARSER_STATUSES)[number];

export const TARGET_TYPES = ['ussd', 'sms'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const PARSER_FIELDS = {
  /** Its identity within its action. */
  category: text({ pooled: true }),
  // The spec does not show every status: an answer's is any string (kept, so the plan shows it).
  status: choice(PARSER_STATUSES, { fallback: 'succeeded', pooled: true, answer: { type: 'string' } }),
  // Sent on create only for an sms parser: a parser created without them is ussd/null, so a ussd
  // parser is created with exactly the spec's documented fields.
  target_type: choice(TARGET_TYPES, { default: 'ussd', pooled: true, sentWhen: smsOnly }),
  sender: textOrNull({
    default: null,
    pooled: true,
    sentWhen: smsOnly,
    emptyIsNull: true,
    // "Null or empty for ussd parsers" (spec: Parser): a ussd parser has none, whatever the
    // config says (the check warns).
    resolve: (p: Channel) => (p.target_type === 'sms' ? p.sender : null),
  }),
  regex: text({ pooled: true, quoted: 'single' }),
  /** The message template shown when the regex matches; `{name}` inserts a named group. */
  user_message: text({ default: '', pooled: true, answer: { type: ['string', 'null'] }, answerOptional: true }),
} as const;

interface Channel {
  target_type: TargetType;
  sender: string | null;
}

function smsOnly(p: Channel): boolean {
  return p.target_type !== 'ussd' || p.sender !== null;
}

/** The field names, for code that reads one field (intent checks read the message template). */
export const PARSER_FIELD: { readonly [K in keyof typeof PARSER_FIELDS]: K } = Object.fromEntries(
  Object.keys(PARSER_FIELDS).map((k) => [k, k]),
) as never;

// Fingerprints and config digests hash the canonical form with status first, and saved plans
// carry both: it stays first.
export const PARSER_TABLE = fieldTable(PARSER_FIELDS, { first: ['status'] });
