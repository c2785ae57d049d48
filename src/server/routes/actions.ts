// /api/actions: list, create, show, patch, archive, restore, and the action's parsers.

import { httpError, notFound } from '../errors.js';
import { archivedFilter, listQuery, listReply } from '../lists.js';
import type { Route, RouteRequest, ServerState } from '../router.js';
import { actionResource, parserResource } from '../serialize.js';
import { storedSteps, type ActionRow } from '../store-actions.js';
import { readActionInput } from '../validate-action.js';

function find(req: RouteRequest): ActionRow {
  const row = req.state.actions.byPublicId(req.org, req.params.id!);
  if (!row) throw notFound(`action ${req.params.id}`);
  return row;
}

const one = (s: ServerState, row: ActionRow) => ({ data: actionResource(row, s.catalogById) });

export const actionRoutes: Route[] = [
  {
    method: 'GET', pattern: '/api/actions', auth: true, body: false, write: false,
    query: (q, s) => listQuery(q, s.lists, { archived: true }),
    handle: (req) => {
      const rows = req.state.actions.list(req.org, archivedFilter(req));
      return listReply(req, rows, (r) => actionResource(r, req.state.catalogById));
    },
  },
  {
    method: 'POST', pattern: '/api/actions', auth: true, body: true, write: true,
    handle: (req) => {
      const input = readActionInput(req.body, 'create', req.state.catalogById);
      const row = req.state.db.transaction(() => req.state.actions.create(req.org, {
        name: input.name!, root_code: input.root_code!, transport_type: input.transport_type!,
        operator_ids: input.operator_ids!, steps: input.steps ?? [],
      })).immediate();
      return { status: 201, body: one(req.state, row) };
    },
  },
  {
    method: 'GET', pattern: '/api/actions/:id', auth: true, body: false, write: false,
    handle: (req) => ({ status: 200, body: one(req.state, find(req)) }),
  },
  {
    method: 'PATCH', pattern: '/api/actions/:id', auth: true, body: true, write: true,
    handle: (req) => {
      const input = readActionInput(req.body, 'patch', req.state.catalogById);
      const row = req.state.db.transaction(() => {
        const current = find(req);
        // The spec: "When the action has steps configured, the payload must include them."
        if (input.steps === undefined && storedSteps(current).length > 0) {
          throw httpError(422, 'steps_required',
            'this action has steps: send custom_steps_attributes with the complete list of steps (they replace the old ones; {} removes them)',
            { pointer: '/custom_action/custom_steps_attributes' });
        }
        return req.state.actions.update(current, input);
      }).immediate();
      // Spec: "Response body of PATCH action: not shown"; spec-only answers with none at all.
      return req.state.lists.specOnly ? { status: 204, body: undefined } : { status: 200, body: one(req.state, row) };
    },
  },
  {
    method: 'DELETE', pattern: '/api/actions/:id', auth: true, body: false, write: true,
    handle: (req) => {
      // Archiving an action leaves its parsers as they are (docs/api.md, Archive and restore).
      const row = req.state.db.transaction(() => req.state.actions.setArchived(find(req), true)).immediate();
      return { status: 200, body: { id: row.public_id, archived: true } };
    },
  },
  {
    method: 'PUT', pattern: '/api/actions/:id/restore', auth: true, body: false, write: true,
    handle: (req) => {
      const row = req.state.db.transaction(() => req.state.actions.setArchived(find(req), false)).immediate();
      return { status: 200, body: one(req.state, row) };
    },
  },
  {
    method: 'GET', pattern: '/api/actions/:id/parsers', auth: true, body: false, write: false,
    query: (q, s) => listQuery(q, s.lists, { archived: true }),
    handle: (req) => {
      const action = find(req);
      const rows = req.state.parsers.listForAction(action.id, archivedFilter(req));
      return listReply(req, rows, parserResource);
    },
  },
];
