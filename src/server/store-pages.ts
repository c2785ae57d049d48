// Lists read one page at a time from SQLite: the page's ids come from an index
// on (scope, archived, id) with LIMIT/OFFSET, so the rows a page skips are never loaded, and the
// total is a COUNT over the same index. Loading every row to slice a page grew with the list,
// and every other tenant waited behind it.

import type { Statements } from './db.js';
import type { ListSource } from './lists.js';

/** `?archived=`: only archived rows (true), only active ones (false), or all (undefined). */
export type ArchivedFilter = boolean | undefined;

/** How one kind's list is read: its table, the column it is scoped by, and its row SELECT. */
export interface ListTable {
  table: string;
  /** organization_id, or action_id for an action's parsers. */
  scope: string;
  /** `SELECT ... FROM <table> <alias> [JOIN ...]`: the row as the store returns it. */
  select: string;
  alias: string;
}

/**
 * The list of `t` rows whose scope column is `scopeValue`, ordered by id (creation order). The
 * filter is spelt `(archived_at IS NOT NULL) = ?` to match the expression indexes (db.ts), which
 * makes both the count and the page's ids covering-index reads.
 */
export function pagedList<R>(st: Statements, t: ListTable, scopeValue: number, archived: ArchivedFilter): ListSource<R> {
  const filter = archived === undefined ? '' : ' AND (archived_at IS NOT NULL) = ?';
  const where = archived === undefined ? [scopeValue] : [scopeValue, archived ? 1 : 0];
  const ids = `SELECT id FROM ${t.table} WHERE ${t.scope} = ?${filter} ORDER BY id LIMIT ? OFFSET ?`;
  return {
    count: () => (st.get(`SELECT COUNT(*) AS n FROM ${t.table} WHERE ${t.scope} = ?${filter}`).get(...where) as { n: number }).n,
    // LIMIT -1: SQLite's "no limit", for a list that is not paged.
    rows: (limit, offset) => st.all<R>(`${t.select} WHERE ${t.alias}.id IN (${ids}) ORDER BY ${t.alias}.id`, ...where, limit ?? -1, offset),
  };
}
