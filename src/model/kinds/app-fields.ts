// The app's fields, declared once (model/kinds/fields.ts says what an entry means). Its secrets
// (token, webhook secret) are no field: the API generates them, and only the secrets file keeps
// them (model/kinds/app.ts appSecrets).

import { fieldTable, text, textOrNull } from './fields.js';

export const APP_FIELDS = {
  name: text({ fallback: '' }),
  /** Its identity. */
  package_name: text(),
  // Sent on create only when set. '' and null both mean none (the canonical form).
  webhook_url: textOrNull({ default: null, sentWhen: (a: { webhook_url: string | null }) => a.webhook_url !== null }),
} as const;

export const APP_TABLE = fieldTable(APP_FIELDS);
