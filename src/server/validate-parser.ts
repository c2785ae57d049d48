// The `parser` payload. Create requires action_id, status, regex, category; target_type and
// sender are accepted on create and patch (the spec does not show it; sms parsers need them).

import { PARSER_STATUSES, TARGET_TYPES } from '../model/types.js';
import { FieldErrors } from './errors.js';
import { readEnum, readString, rootObject } from './fields.js';
import type { ParserFields } from './store-parsers.js';

export const PARSER_BOUNDS = { category: 255, regex: 4096, user_message: 1024, sender: 64, action_id: 64 } as const;

export interface ParserInput extends Partial<ParserFields> {
  action_id?: string;
}

const P = '/parser';

export function readParserInput(body: unknown, mode: 'create' | 'patch'): ParserInput {
  const errs = new FieldErrors();
  const obj = rootObject(body, 'parser', errs);
  errs.throwIfAny();
  const required = mode === 'create';
  const out: ParserInput = {};
  const actionId = readString(obj!, 'action_id', P, { min: 1, max: PARSER_BOUNDS.action_id, required }, errs);
  if (typeof actionId === 'string') out.action_id = actionId;
  const status = readEnum(obj!, 'status', P, PARSER_STATUSES, required, errs);
  if (status) out.status = status;
  // The regex dialect is not shown in the spec, and real parsers use constructs JavaScript
  // rejects, so the server stores the text as given and does not compile it.
  const regex = readString(obj!, 'regex', P, { min: 1, max: PARSER_BOUNDS.regex, required, notBlank: true }, errs);
  if (typeof regex === 'string') out.regex = regex;
  const category = readString(obj!, 'category', P, { min: 1, max: PARSER_BOUNDS.category, required, notBlank: true }, errs);
  if (typeof category === 'string') out.category = category;
  const message = readString(obj!, 'user_message', P, { min: 0, max: PARSER_BOUNDS.user_message, nullable: true }, errs);
  if (message !== undefined) out.user_message = message ?? '';
  const target = readEnum(obj!, 'target_type', P, TARGET_TYPES, false, errs);
  if (target) out.target_type = target;
  const sender = readString(obj!, 'sender', P, { min: 0, max: PARSER_BOUNDS.sender, nullable: true }, errs);
  if (sender !== undefined) out.sender = sender;
  errs.throwIfAny();
  return out;
}

/** Applies a create/patch input over the current fields (or the defaults) and checks the whole. */
export function mergeParser(current: ParserFields | undefined, input: ParserInput): ParserFields {
  const base: ParserFields = current ?? {
    status: '', category: '', regex: '', user_message: '', target_type: 'ussd', sender: null,
  };
  const targetType = input.target_type ?? base.target_type;
  // Switching to ussd without naming a sender clears the old sms sender.
  const sender = input.sender !== undefined ? input.sender : targetType === 'ussd' ? null : base.sender;
  const merged: ParserFields = {
    status: input.status ?? base.status,
    category: input.category ?? base.category,
    regex: input.regex ?? base.regex,
    user_message: input.user_message ?? base.user_message,
    target_type: targetType,
    sender,
  };
  const errs = new FieldErrors();
  if (merged.target_type === 'sms' && !merged.sender) {
    errs.add(`${P}/sender`, 'required', 'sender is required when target_type is sms (the sender id of the SMS, e.g. MPESA)');
  }
  if (merged.target_type === 'ussd' && merged.sender) {
    errs.add(`${P}/sender`, 'not_allowed', 'sender must be null or empty when target_type is ussd');
  }
  errs.throwIfAny();
  return merged;
}
