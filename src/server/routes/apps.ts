// /api/apps: create, show, patch, archive, restore, and list (an extension: the spec has no
// GET /api/apps, but a planner needs to see the organization's apps; off in spec-only mode).

import { httpError, notFound } from '../errors.js';
import { archivedFilter, listQuery, listReply } from '../lists.js';
import { numericId, type Route, type RouteRequest } from '../router.js';
import { appResource } from '../serialize.js';
import type { AppRow } from '../store-apps.js';
import { readAppInput } from '../validate-app.js';

function find(req: RouteRequest): AppRow {
  const row = req.state.apps.byId(req.org, numericId(req.params.id!, 'app'));
  if (!row) throw notFound(`app ${req.params.id}`);
  return row;
}

export const appRoutes: Route[] = [
  {
    method: 'GET', pattern: '/api/apps', auth: true, body: false, write: false,
    query: (q, s) => listQuery(q, s.lists, { archived: true }),
    handle: (req) => {
      // The spec has no apps index: spec-only answers as for a route that does not exist.
      if (req.state.lists.specOnly) throw httpError(404, 'not_found', 'no route for /api/apps');
      const rows = req.state.apps.list(req.org, archivedFilter(req));
      return listReply(req, rows, appResource);
    },
  },
  {
    method: 'POST', pattern: '/api/apps', auth: true, body: true, write: true,
    handle: (req) => {
      const input = readAppInput(req.body, 'create');
      const row = req.state.db.transaction(() => req.state.apps.create(req.org, {
        name: input.name!, package_name: input.package_name!, webhook_url: input.webhook_url ?? null,
      })).immediate();
      return { status: 201, body: { data: appResource(row) } };
    },
  },
  {
    method: 'GET', pattern: '/api/apps/:id', auth: true, body: false, write: false,
    handle: (req) => ({ status: 200, body: { data: appResource(find(req)) } }),
  },
  {
    method: 'PATCH', pattern: '/api/apps/:id', auth: true, body: true, write: true,
    handle: (req) => {
      const input = readAppInput(req.body, 'patch');
      const row = req.state.db.transaction(() => {
        const current = find(req);
        return req.state.apps.update(current, {
          name: input.name ?? current.name,
          package_name: input.package_name ?? current.package_name,
          webhook_url: input.webhook_url !== undefined ? input.webhook_url : current.webhook_url,
        });
      }).immediate();
      return { status: 200, body: { data: appResource(row) } };
    },
  },
  {
    method: 'DELETE', pattern: '/api/apps/:id', auth: true, body: false, write: true,
    handle: (req) => {
      const row = req.state.db.transaction(() => req.state.apps.setArchived(find(req), true)).immediate();
      // The spec: the id is an integer here, unlike for actions and parsers.
      return { status: 200, body: { id: row.id, archived: true } };
    },
  },
  {
    method: 'PUT', pattern: '/api/apps/:id/restore', auth: true, body: false, write: true,
    handle: (req) => {
      const row = req.state.db.transaction(() => req.state.apps.setArchived(find(req), false)).immediate();
      return { status: 200, body: { data: appResource(row) } };
    },
  },
];
