// /api/parsers: create, show, patch, archive, restore. Parsers may be created on an archived
// action (docs/api.md, Parsers): archiving an action does not touch its parsers either.

import { FieldErrors, httpError, notFound } from '../errors.js';
import { numericId, type Route, type RouteRequest } from '../router.js';
import { parserResource } from '../serialize.js';
import type { ParserRow } from '../store-parsers.js';
import { mergeParser, readParserInput } from '../validate-parser.js';

function find(req: RouteRequest): ParserRow {
  const row = req.state.parsers.byId(req.org, numericId(req.params.id!, 'parser'));
  if (!row) throw notFound(`parser ${req.params.id}`);
  return row;
}

export const parserRoutes: Route[] = [
  {
    method: 'POST', pattern: '/api/parsers', auth: true, body: true, write: true,
    handle: (req) => {
      const input = readParserInput(req.body, 'create');
      const fields = mergeParser(undefined, input);
      const row = req.state.db.transaction(() => {
        const action = req.state.actions.byPublicId(req.org, input.action_id!);
        if (!action) {
          const errs = new FieldErrors();
          errs.add('/parser/action_id', 'unknown_action', `action ${input.action_id} not found: action_id is the action's public id`);
          errs.throwIfAny();
        }
        return req.state.parsers.create(req.org, action!.id, fields);
      }).immediate();
      return { status: 201, body: { data: parserResource(row) } };
    },
  },
  {
    method: 'GET', pattern: '/api/parsers/:id', auth: true, body: false, write: false,
    handle: (req) => ({ status: 200, body: { data: parserResource(find(req)) } }),
  },
  {
    method: 'PATCH', pattern: '/api/parsers/:id', auth: true, body: true, write: true,
    handle: (req) => {
      const input = readParserInput(req.body, 'patch');
      const row = req.state.db.transaction(() => {
        const current = find(req);
        if (input.action_id !== undefined && input.action_id !== current.public_id) {
          throw httpError(422, 'immutable', 'a parser cannot move to another action: create a new parser there instead',
            { pointer: '/parser/action_id' });
        }
        return req.state.parsers.update(current, mergeParser(current, input));
      }).immediate();
      return { status: 200, body: { data: parserResource(row) } };
    },
  },
  {
    method: 'DELETE', pattern: '/api/parsers/:id', auth: true, body: false, write: true,
    handle: (req) => {
      const row = req.state.db.transaction(() => req.state.parsers.setArchived(find(req), true)).immediate();
      return { status: 200, body: { id: String(row.id), archived: true } };
    },
  },
  {
    method: 'PUT', pattern: '/api/parsers/:id/restore', auth: true, body: false, write: true,
    handle: (req) => {
      const row = req.state.db.transaction(() => req.state.parsers.setArchived(find(req), false)).immediate();
      return { status: 200, body: { data: parserResource(row) } };
    },
  },
];
