// The parser kind: a regex that classifies a reply to its action. Nested: it belongs to an action
// (its address extends the action's; it is created under the action's live public id).
// Its fields are declared in parser-fields.ts; below: its resolved form (the config's as the API
// should hold it), canonical form, request bodies, answer, plan JSON and API calls, made from them.

import type { DesiredParser, LiveParser, ResolvedParser } from '../types.js';
import { liveMaker, shaped, type CanonicalValues } from './fields.js';
import type { Kind } from './kind.js';
import { PARSER_FIELDS, PARSER_TABLE } from './parser-fields.js';
import { pickDefined, str, strOrNull, type ApiResource } from './values.js';

export type CanonicalParser = CanonicalValues<typeof PARSER_FIELDS>;

const Resolved = shaped<DesiredParser>((o, p) => PARSER_TABLE.resolve(p, o));

/**
 * The parser as the API should hold it, from the config's values as written: a ussd parser has
 * no sender (spec: "Null or empty for ussd parsers"), whatever the config says (the check warns).
 */
export function resolveParser(p: DesiredParser): ResolvedParser {
  return new Resolved(p) as unknown as ResolvedParser;
}

/** What the planner compares: the server's defaults filled in (a parser created without target_type is ussd, with no message ''). */
export function canonicalParser(p: LiveParser | ResolvedParser): CanonicalParser {
  return PARSER_TABLE.canonicalLive(p);
}

/** A parser's request body, create or patch: fields of its resolved form, and its action's public id on create. */
export interface ParserBody {
  parser: Partial<ResolvedParser> & { action_id?: string };
}

/** Create body of a parser: its action's public id, then the fields the table sends on create. */
export function parserBody(actionPublicId: string, spec: ResolvedParser): ParserBody {
  const parser: Record<string, unknown> = { action_id: actionPublicId };
  PARSER_TABLE.createBody(spec, parser);
  return { parser };
}

/** Patch body: exactly the given fields (a `sender: null` is sent, to clear it). */
export function parserPatchBody(partial: Partial<ResolvedParser>): ParserBody {
  return { parser: pickDefined(partial) };
}

const Live = liveMaker(PARSER_TABLE, {
  before: { action_id: (a) => str(a.custom_action_public_id) },
  after: { archived_at: (a) => strOrNull(a.archived_at), updated_at: (a) => str(a.updated_at) },
});

export function fromApiParser(json: ApiResource): LiveParser {
  return new Live(json) as unknown as LiveParser;
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
  fields: PARSER_TABLE,
  paths: PARSER_TABLE.paths,
  planJson: (d) => PARSER_TABLE.planJson(d),
  api: {
    create: async (c, spec, actionId) => ({ live: await c.createParser(actionId!, spec) }),
    list: (c, actionId) => c.listParsers(actionId!),
    get: (c, id) => c.getParser(id),
    update: (c, id, spec) => c.updateParser(id, spec),
    archive: (c, id) => c.archiveParser(id),
    restore: (c, id) => c.restoreParser(id),
  },
};
