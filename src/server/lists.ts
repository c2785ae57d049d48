// How the server answers a list (docs/api.md, Lists): one page of `data`, `links.next` while
// more remain, and in full mode the extensions (`meta`, `?archived=`). In spec-only mode the
// answer is exactly the spec's `{ data: [...] }` (plus `links` when paging is on): the spec
// shows no filter and no meta, so neither exists there.
//
// A list route names the query parameters it understands (listQuery): validated, in one order,
// defaults filled. That canonical query is all the answer depends on, so it is also the answer
// cache's key (handler.ts) and what `links.next` carries: `?page=1` and no page are one answer,
// and `?x=123` is the same answer as none, not a new one to build and keep.

import { httpError } from './errors.js';
import type { Db } from './db.js';

/** Server-wide list behaviour, from ServerOptions. */
export interface ListOptions {
  specOnly: boolean;
  /** Most items per page; undefined: no paging. */
  pageSize: number | undefined;
}

/** A list that can be read a page at a time (store-pages.ts), or an array already in memory. */
export interface ListSource<R> {
  /** How many items the whole list has. */
  count(): number;
  /** The items from `offset`, at most `limit` of them (all when undefined), in list order. */
  rows(limit: number | undefined, offset: number): readonly R[];
}

/** An in-memory list (the world operator catalog). */
export function arraySource<R>(items: readonly R[]): ListSource<R> {
  return {
    count: () => items.length,
    rows: (limit, offset) => items.slice(offset, limit === undefined ? undefined : offset + limit),
  };
}

/** The full server's page bound when none is given (docs/api.md, Lists): one answer stays under ~1 MB. */
export const DEFAULT_PAGE_SIZE = 1000;

/** A canonical query: the parameters a route understands, in the order it names them. */
export type CanonicalQuery = ReadonlyArray<readonly [string, string]>;

/**
 * What a list needs of a request (router.ts's RouteRequest has it): named here, not imported
 * from the router, whose server state names the stores that build on this file.
 */
export interface ListRequest {
  understood: CanonicalQuery;
  state: { lists: ListOptions; db: Pick<Db, 'transaction'> };
}

/**
 * The list parameters of `query` as `lists` understands them, after the route's own (`own`):
 * `archived` for a resource list (full mode only; spec-only ignores it like any unknown
 * parameter), then `page` when paging is on, filled with 1 when absent. A bad value is a 400
 * naming the parameter.
 */
export function listQuery(query: URLSearchParams, lists: ListOptions, o: { own?: CanonicalQuery; archived?: boolean } = {}): CanonicalQuery {
  const out: Array<readonly [string, string]> = [...(o.own ?? [])];
  const archived = o.archived && !lists.specOnly ? query.get('archived') : null;
  if (archived !== null) {
    if (archived !== 'true' && archived !== 'false') {
      throw httpError(400, 'invalid_parameter', 'archived must be true or false', { parameter: 'archived' });
    }
    out.push(['archived', archived]);
  }
  if (lists.pageSize !== undefined) out.push(['page', String(pageNumber(query))]);
  return out;
}

/** `?archived=true|false` from the canonical query; undefined: no filter. */
export function archivedFilter(req: Pick<ListRequest, 'understood'>): boolean | undefined {
  const v = valueOf(req.understood, 'archived');
  return v === undefined ? undefined : v === 'true';
}

/** `a=1&b=2`, percent-encoded as URLSearchParams does. */
export function queryString(q: CanonicalQuery): string {
  return new URLSearchParams(q.map(([k, v]): [string, string] => [k, v])).toString();
}

export function valueOf(q: CanonicalQuery, name: string): string | undefined {
  return q.find(([k]) => k === name)?.[1];
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
 * One page of `source` in the list envelope, each item serialised by `toResource`. Only the
 * page's items are read: the total comes from source.count(), not from loading the list. Count
 * and page are read in one transaction, so they agree even while another process writes.
 */
export function listReply<R>(req: ListRequest, source: ListSource<R>, toResource: (row: R) => unknown): { status: number; body: unknown } {
  const { specOnly, pageSize } = req.state.lists;
  const body: Record<string, unknown> = {};
  let count: number;
  if (pageSize === undefined) {
    const rows = source.rows(undefined, 0);
    body.data = rows.map(toResource);
    count = rows.length;
  } else {
    const page = Number(valueOf(req.understood, 'page') ?? 1);
    const start = (page - 1) * pageSize;
    const rows = req.state.db.transaction(() => {
      count = source.count();
      return start < count ? source.rows(pageSize, start) : [];
    })();
    body.data = rows.map(toResource);
    const more = start + pageSize < count!;
    // A list that fits one page answers exactly as without paging.
    if (more || page > 1) body.links = { next: more ? nextLink(req.understood, page + 1) : null };
  }
  if (!specOnly) body.meta = { count: count! };
  return { status: 200, body };
}

/**
 * The canonical query with the next page number, as a query-only reference (`?page=2`): it
 * resolves against the page's own URL whatever it is (`/api/actions`, the spec's
 * `/api/actions/`, or the same behind a proxy that serves this API under a path prefix, where
 * a root-relative `/api/actions?page=2` would drop the prefix). It carries the parameters the
 * route understands (spec-only: not the extensions such as `archived`; `?country=` filters the
 * operators in both), and nothing else.
 */
function nextLink(understood: CanonicalQuery, page: number): string {
  return `?${queryString(understood.map(([k, v]) => [k, k === 'page' ? String(page) : v] as const))}`;
}
