// The parser kind: a regex that classifies a reply to its action. Nested: it belongs to an action
// (its address extends the action's; it is created under the action's live public id).
// Below: its resolved form (the config's as the API should hold it), canonical form, request bodies, answer,
// plan JSON and API calls.

import type { DesiredParser, LiveParser, ParserStatus, ResolvedParser, TargetType } from '../types.js';
import type { Kind } from './kind.js';
import { nullIfEmpty, pickDefined, str, strOrNull, type ApiResource } from './values.js';

export interface CanonicalParser {
  status: string;
  category: string;
  target_type: string;
  sender: string | null;
  regex: string;
  user_message: string;
}

/**
 * The parser as the API should hold it, from the config's values as written: a ussd parser has
 * no sender (spec: "Null or empty for ussd parsers"), whatever the config says (the check warns).
 */
export function resolveParser(p: DesiredParser): ResolvedParser {
  return {
    category: p.category,
    status: p.status,
    target_type: p.target_type,
    sender: p.target_type === 'sms' ? p.sender : null,
    regex: p.regex,
    user_message: p.user_message,
  };
}

export function canonicalParser(p: LiveParser | ResolvedParser): CanonicalParser {
  return {
    status: p.status,
    category: p.category,
    // A parser created without target_type is ussd, and without user_message has '' (spec: Parser).
    target_type: p.target_type ?? 'ussd',
    sender: nullIfEmpty(p.sender),
    regex: p.regex,
    user_message: p.user_message ?? '',
  };
}

/** A parser's request body, create or patch: fields of its resolved form, and its action's public id on create. */
export interface ParserBody {
  parser: Partial<ResolvedParser> & { action_id?: string };
}

/**
 * Create body of a parser. `target_type` and `sender` are sent only for sms parsers: the
 * spec's create body does not list them and a parser created without them is ussd/null,
 * so a ussd parser is created with exactly the documented fields.
 */
export function parserBody(actionPublicId: string, spec: ResolvedParser): ParserBody {
  const parser: ParserBody['parser'] = {
    action_id: actionPublicId,
    status: spec.status,
    category: spec.category,
    regex: spec.regex,
    user_message: spec.user_message,
  };
  if (spec.target_type !== 'ussd' || spec.sender !== null) {
    parser.target_type = spec.target_type;
    parser.sender = spec.sender;
  }
  return { parser };
}

/** Patch body: exactly the given fields (a `sender: null` is sent, to clear it). */
export function parserPatchBody(partial: Partial<ResolvedParser>): ParserBody {
  return { parser: pickDefined(partial) };
}

export function fromApiParser(json: ApiResource): LiveParser {
  const a = json.attributes;
  const sender = strOrNull(a.sender);
  return {
    id: String(json.id),
    action_id: str(a.custom_action_public_id),
    category: str(a.category),
    // Kept as sent even when outside our enum (the spec does not show the full set): the
    // planner then sees a difference instead of the client refusing the whole state.
    status: a.status as ParserStatus,
    target_type: (a.target_type ?? 'ussd') as TargetType,
    // "Null or empty for ussd parsers": one canonical form.
    sender: sender === '' ? null : sender,
    regex: str(a.regex),
    user_message: str(a.user_message),
    archived_at: strOrNull(a.archived_at),
    updated_at: str(a.updated_at),
  };
}

export const parser: Kind<LiveParser, ResolvedParser> = {
  type: 'parser',
  level: 1,
  ownedBy: 'action',
  keyLabel: 'category',
  key: (r) => r.category,
  address: (spec, parent) => `${parent}.parser[${JSON.stringify(spec.category)}]`,
  addressOf: (key, parent) => `${parent}.parser[${JSON.stringify(key)}]`,
  parentId: (p) => p.action_id,
  liveIn: (s) => s.parsers,
  canonicalLive: (p) => canonicalParser(p),
  canonical: (spec) => canonicalParser(spec),
  paths: ['status', 'category', 'target_type', 'sender', 'regex', 'user_message'],
  planJson: (d) => ({ category: d.category, status: d.status, target_type: d.target_type, sender: d.sender, regex: d.regex, user_message: d.user_message }),
  api: {
    create: async (c, spec, actionId) => ({ live: await c.createParser(actionId!, spec) }),
    list: (c, actionId) => c.listParsers(actionId!),
    get: (c, id) => c.getParser(id),
    update: (c, id, spec) => c.updateParser(id, spec),
    archive: (c, id) => c.archiveParser(id),
    restore: (c, id) => c.restoreParser(id),
  },
};
