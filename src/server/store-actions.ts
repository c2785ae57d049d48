// Actions in SQLite. Every query is scoped by organization: another organization's action is
// indistinguishable from a missing one.

import { randomBytes } from 'node:crypto';
import type { Statements } from './db.js';
import { nowIso } from './fields.js';
import type { ListSource } from './lists.js';
import { pagedList, type ArchivedFilter, type ListTable } from './store-pages.js';
import type { ActionInput, StoredStep } from './validate-action.js';

export interface ActionRow {
  id: number;
  public_id: string;
  organization_id: number;
  name: string;
  description: string | null;
  root_code: string;
  transport_type: string;
  operator_ids: string;
  steps: string;
  transactions_count: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export type { ArchivedFilter };

const LIST: ListTable = { table: 'actions', scope: 'organization_id', select: 'SELECT a.* FROM actions a', alias: 'a' };

export class ActionStore {
  constructor(private readonly st: Statements) {}

  /** The organization's actions, oldest first, read a page at a time. */
  list(org: number, archived: ArchivedFilter): ListSource<ActionRow> {
    return pagedList(this.st, LIST, org, archived);
  }

  byPublicId(org: number, publicId: string): ActionRow | undefined {
    return this.st.get('SELECT * FROM actions WHERE organization_id = ? AND public_id = ?').get(org, publicId) as ActionRow | undefined;
  }

  byId(id: number): ActionRow {
    return this.st.get('SELECT * FROM actions WHERE id = ?').get(id) as ActionRow;
  }

  create(org: number, input: Required<Omit<ActionInput, 'steps'>> & { steps: StoredStep[] }): ActionRow {
    const now = nowIso();
    const insert = this.st.get(`INSERT INTO actions
      (public_id, organization_id, name, description, root_code, transport_type, operator_ids, steps, created_at, updated_at)
      VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`);
    for (let attempt = 0; ; attempt++) {
      const publicId = randomBytes(4).toString('hex');
      try {
        const r = insert.run(publicId, org, input.name, input.root_code, input.transport_type,
          JSON.stringify(input.operator_ids), JSON.stringify(input.steps), now, now);
        return this.byId(Number(r.lastInsertRowid));
      } catch (err) {
        // 2^32 public ids: a collision is rare, and the UNIQUE constraint catches it.
        if (attempt < 5 && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') continue;
        throw err;
      }
    }
  }

  update(row: ActionRow, input: ActionInput): ActionRow {
    this.st.get(`UPDATE actions SET name = ?, root_code = ?, transport_type = ?, operator_ids = ?, steps = ?, updated_at = ?
      WHERE id = ?`).run(
      input.name ?? row.name,
      input.root_code ?? row.root_code,
      input.transport_type ?? row.transport_type,
      input.operator_ids ? JSON.stringify(input.operator_ids) : row.operator_ids,
      input.steps ? JSON.stringify(input.steps) : row.steps,
      nowIso(),
      row.id,
    );
    return this.byId(row.id);
  }

  /** Sets or clears archived_at; a no-op (same row back) when already in that state. */
  setArchived(row: ActionRow, archived: boolean): ActionRow {
    if ((row.archived_at !== null) === archived) return row;
    const now = nowIso();
    this.st.get('UPDATE actions SET archived_at = ?, updated_at = ? WHERE id = ?').run(archived ? now : null, now, row.id);
    return this.byId(row.id);
  }
}

export function storedSteps(row: ActionRow): StoredStep[] {
  return JSON.parse(row.steps) as StoredStep[];
}
