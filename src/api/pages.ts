// Following `links.next`: a service that pages its lists says where the next
// page is; the client follows every page, and only on the API's own origin and base path (a
// link elsewhere would send the token to another host). It never needs `meta` or a count.

import { ResponseShapeError } from './errors.js';

/** Most pages one list may have: a server whose links loop is an error, not a hang. */
export const MAX_PAGES = 100_000;

/** `links.next` of a list body, or null when there is none (the last page, or no paging). */
export function nextLink(body: unknown): string | null {
  const links = (body as { links?: unknown }).links;
  if (links === undefined || links === null || typeof links !== 'object') return null;
  const next = (links as { next?: unknown }).next;
  return typeof next === 'string' && next !== '' ? next : null;
}

/**
 * The request path (relative to `baseUrl`) of a `next` link, which may be absolute or relative
 * to the page it came from. Throws when it leaves the API's origin or base path.
 */
export function nextPath(baseUrl: string, currentPath: string, next: string): string {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(next, baseUrl + currentPath);
  } catch {
    throw badLink(currentPath, next, 'is not a URL');
  }
  if (url.origin !== base.origin) throw badLink(currentPath, next, `points to another origin than ${base.origin}`);
  if (basePath !== '' && !url.pathname.startsWith(`${basePath}/`)) {
    // A root-relative link from a service behind a proxy that serves it under a path prefix: the
    // service does not know the prefix, and means its own root. Read under the base path.
    if (next.startsWith('/') && !next.startsWith('//')) return url.pathname + url.search;
    throw badLink(currentPath, next, `is outside the API's base path ${basePath}`);
  }
  return url.pathname.slice(basePath.length) + url.search;
}

function badLink(path: string, next: string, why: string): ResponseShapeError {
  return new ResponseShapeError({
    method: 'GET', path, status: 200, outcome: 'failed',
    problem: `links.next ${JSON.stringify(next.slice(0, 200))} ${why}; not followed`,
  });
}

/** A `next` link that was already followed: the server's pages loop. */
export function loopingLink(path: string, next: string): ResponseShapeError {
  return badLink(path, next, 'was already followed (the pages loop)');
}
