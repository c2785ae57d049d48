// Apps in SQLite, scoped by organization. token and webhook_secret are 32 lowercase hex
// characters from crypto.randomBytes; webhook_secret exists exactly when webhook_url is set.

import { randomBytes } from 'node:crypto';
import type { Statements } from './db.js';
import { nowIso } from './fields.js';
import type { ListSource } from './lists.js';
import { pagedList, type ArchivedFilter, type ListTable } from './store-pages.js';

const LIST: ListTable = { table: 'apps', scope: 'organization_id', select: 'SELECT p.* FROM apps p', alias: 'p' };

export interface AppRow {
  id: number;
  organization_id: number;
  name: string;
  package_name: string;
  icon: string;
  token: string;
  webhook_url: string | null;
  webhook_secret: string | null;
  is_tester: number;
  apk_url: string | null;
  transactions_count: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export interface AppFields {
  name: string;
  package_name: string;
  webhook_url: string | null;
}

const secret = (): string => randomBytes(16).toString('hex');

export class AppStore {
  constructor(private readonly st: Statements) {}

  /** The organization's apps, oldest first, read a page at a time. */
  list(org: number, archived: ArchivedFilter): ListSource<AppRow> {
    return pagedList(this.st, LIST, org, archived);
  }

  byId(org: number, id: number): AppRow | undefined {
    return this.st.get('SELECT * FROM apps WHERE organization_id = ? AND id = ?').get(org, id) as AppRow | undefined;
  }

  create(org: number, f: AppFields): AppRow {
    const now = nowIso();
    const r = this.st.get(`INSERT INTO apps (organization_id, name, package_name, icon, token, webhook_url, webhook_secret, created_at, updated_at)
      VALUES (?, ?, ?, 'noimg.svg', ?, ?, ?, ?, ?)`).run(org, f.name, f.package_name, secret(), f.webhook_url, f.webhook_url ? secret() : null, now, now);
    return this.byId(org, Number(r.lastInsertRowid))!;
  }

  update(row: AppRow, f: AppFields): AppRow {
    // A secret is generated when a URL is first added, kept while a URL stays, dropped with it.
    const webhookSecret = f.webhook_url ? (row.webhook_secret ?? secret()) : null;
    this.st.get('UPDATE apps SET name = ?, package_name = ?, webhook_url = ?, webhook_secret = ?, updated_at = ? WHERE id = ?')
      .run(f.name, f.package_name, f.webhook_url, webhookSecret, nowIso(), row.id);
    return this.byId(row.organization_id, row.id)!;
  }

  setArchived(row: AppRow, archived: boolean): AppRow {
    if ((row.archived_at !== null) === archived) return row;
    const now = nowIso();
    this.st.get('UPDATE apps SET archived_at = ?, updated_at = ? WHERE id = ?').run(archived ? now : null, now, row.id);
    return this.byId(row.organization_id, row.id)!;
  }
}
