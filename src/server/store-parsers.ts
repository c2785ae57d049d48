// Parsers in SQLite, scoped by organization. Category uniqueness among the active parsers of an
// action is enforced by a partial unique index; a violation becomes a 409 (docs/api.md, Parsers).

import type { Statements } from './db.js';
import { httpError } from './errors.js';
import { nowIso } from './fields.js';
import type { ListSource } from './lists.js';
import { pagedList, type ArchivedFilter, type ListTable } from './store-pages.js';

/** What a client may set on a parser. */
export interface ParserFields {
  status: string;
  category: string;
  target_type: string;
  sender: string | null;
  regex: string;
  user_message: string;
}

export interface ParserRow extends ParserFields {
  id: number;
  action_id: number;
  organization_id: number;
  transactions_count: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  public_id: string; // of the owning action (joined)
}

const SELECT = 'SELECT p.*, a.public_id AS public_id FROM parsers p JOIN actions a ON a.id = p.action_id';
const LIST: ListTable = { table: 'parsers', scope: 'action_id', select: SELECT, alias: 'p' };

export class ParserStore {
  constructor(private readonly st: Statements) {}

  /** The action's parsers, oldest first, read a page at a time. */
  listForAction(actionId: number, archived: ArchivedFilter): ListSource<ParserRow> {
    return pagedList(this.st, LIST, actionId, archived);
  }

  byId(org: number, id: number): ParserRow | undefined {
    return this.st.get(`${SELECT} WHERE p.organization_id = ? AND p.id = ?`).get(org, id) as ParserRow | undefined;
  }

  create(org: number, actionId: number, f: ParserFields): ParserRow {
    const now = nowIso();
    const r = guardCategory(f.category, () => this.st.get(`INSERT INTO parsers
      (action_id, organization_id, status, category, target_type, sender, regex, user_message, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(actionId, org, f.status, f.category, f.target_type, f.sender, f.regex, f.user_message, now, now));
    return this.byId(org, Number(r.lastInsertRowid))!;
  }

  update(row: ParserRow, f: ParserFields): ParserRow {
    guardCategory(f.category, () => this.st.get(`UPDATE parsers SET status = ?, category = ?, target_type = ?, sender = ?, regex = ?,
      user_message = ?, updated_at = ? WHERE id = ?`).run(f.status, f.category, f.target_type, f.sender, f.regex, f.user_message, nowIso(), row.id));
    return this.byId(row.organization_id, row.id)!;
  }

  setArchived(row: ParserRow, archived: boolean): ParserRow {
    if ((row.archived_at !== null) === archived) return row;
    const now = nowIso();
    guardCategory(row.category, () => this.st.get('UPDATE parsers SET archived_at = ?, updated_at = ? WHERE id = ?').run(archived ? now : null, now, row.id));
    return this.byId(row.organization_id, row.id)!;
  }
}

function guardCategory<T>(category: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw httpError(409, 'category_taken',
        `another active parser of this action already has category "${category}": archive it or choose another category`,
        { pointer: '/parser/category' });
    }
    throw err;
  }
}
