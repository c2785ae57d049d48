// How the server answers a list (docs/api.md, Lists): one page of `data`, `links.next` while
// more remain, and in full mode the extensions (`meta`, `?archived=`). In spec-only mode the
// answer is exactly the spec's `{ data: [...] }` (plus `links` when paging is on): the spec
// shows no filter and no meta, so neither exists there.

import { httpError } from './errors.js';
import type { RouteRequest } from './router.js';

/** Server-wide list behaviour, from ServerOptions. */
export interface ListOptions {
  specOnly: boolean;
  /** Most items per page; undefined: no paging. */
  pageSize: number | undefined;
}

/** The full server's page bound when none is given (docs/api.md, Lists): one answer stays under ~1 MB. */
export const DEFAULT_PAGE_SIZE = 1000;

/** `?archived=true|false` (an extension; spec-only ignores it like any unknown parameter). */
export function archivedFilter(req: RouteRequest): boolean | undefined {
  if (req.state.lists.specOnly) return undefined;
  const v = req.query.get('archived');
  if (v === null) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw httpError(400, 'invalid_parameter', 'archived must be true or false', { parameter: 'archived' });
}

/** The 1-based `?page=` (default 1); anything else is a 400 naming the parameter. */
function pageNumber(query: URLSearchParams): number {
  const raw = query.get('page');
  if (raw === null) return 1;
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) {
    throw httpError(400, 'invalid_parameter', `page must be a whole number from 1 (got ${JSON.stringify(raw.slice(0, 20))})`, { parameter: 'page' });
  }
  return Number(raw);
}

/**
 * One page of `rows` in the list envelope, each row serialised by `toResource` (only the rows
 * of the page are); `path` is the list's path, for `links.next`.
 */
export function listReply<R>(req: RouteRequest, path: string, rows: readonly R[], toResource: (row: R) => unknown): { status: number; body: unknown } {
  const { specOnly, pageSize } = req.state.lists;
  const body: Record<string, unknown> = {};
  if (pageSize === undefined) {
    body.data = rows.map(toResource);
  } else {
    const page = pageNumber(req.query);
    const start = (page - 1) * pageSize;
    body.data = rows.slice(start, start + pageSize).map(toResource);
    const more = start + pageSize < rows.length;
    // A list that fits one page answers exactly as without paging.
    if (more || page > 1) body.links = { next: more ? nextLink(req, page + 1) : null };
  }
  if (!specOnly) body.meta = { count: rows.length };
  return { status: 200, body };
}

/**
 * The same query with the next page number, as a query-only reference (`?page=2`): it resolves
 * against the page's own URL whatever it is (`/api/actions`, the spec's `/api/actions/`, or the
 * same behind a proxy that serves this API under a path prefix, where a root-relative
 * `/api/actions?page=2` would drop the prefix). Spec-only drops the extension parameters
 * (`archived`) but keeps the rest (`?country=` filters the operators).
 */
function nextLink(req: RouteRequest, page: number): string {
  const query = new URLSearchParams(req.query);
  if (req.state.lists.specOnly) query.delete('archived');
  query.set('page', String(page));
  return `?${query.toString()}`;
}
