// The app kind: an Android app that receives results by webhook. Created with secrets (token,
// webhook secret), which are read here and go to the secrets file only (apply/secrets-file.ts).
// Its fields are declared in app-fields.ts; below: its canonical form, request bodies, answer,
// plan JSON and API calls, made from them.

import { appAddress } from '../address.js';
import type { AppSecrets, DesiredApp, ResolvedApp, LiveApp } from '../types.js';
import { APP_FIELDS, APP_TABLE } from './app-fields.js';
import { liveMaker, shaped, type CanonicalValues } from './fields.js';
import type { Kind } from './kind.js';
import { pickDefined, str, strOrNull, type ApiResource } from './values.js';

export type CanonicalApp = CanonicalValues<typeof APP_FIELDS>;

const Resolved = shaped<DesiredApp>((o, a) => APP_TABLE.resolve(a, o));

/** The app as the API should hold it: its config values without the managing options. */
export function resolveApp(a: DesiredApp): ResolvedApp {
  return new Resolved(a) as unknown as ResolvedApp;
}

/** What the planner compares: an app without a webhook has null; '' would clear it the same way. */
export function canonicalApp(a: LiveApp | ResolvedApp): CanonicalApp {
  return APP_TABLE.canonicalLive(a);
}

/** An app's request body, create or patch: fields of its resolved form. */
export interface AppBody {
  app: Partial<ResolvedApp>;
}

export function appBody(spec: ResolvedApp): AppBody {
  const app: Record<string, unknown> = {};
  APP_TABLE.createBody(spec, app);
  return { app };
}

export function appPatchBody(partial: Partial<ResolvedApp>): AppBody {
  return { app: pickDefined(partial) };
}

const Live = liveMaker(APP_TABLE, {
  after: { organization_id: (a) => Number(a.organization_id), archived_at: (a) => strOrNull(a.archived_at), updated_at: (a) => str(a.updated_at) },
});

/** The app without its secrets (`token`, `webhook_secret` are dropped here). */
export function fromApiApp(json: ApiResource): LiveApp {
  return new Live(json) as unknown as LiveApp;
}

/** The one place secrets are read (create responses, and getAppSecrets after a lost create answer). */
export function appSecrets(json: ApiResource): AppSecrets {
  const a = json.attributes;
  return { token: str(a.token), webhook_secret: strOrNull(a.webhook_secret) };
}

export const app: Kind<LiveApp, ResolvedApp> = {
  type: 'app',
  level: 0,
  hasSecrets: true,
  mayBeUnlisted: true,
  keyLabel: 'package_name',
  key: (r) => r.package_name,
  address: (spec) => appAddress(spec.package_name),
  addressOf: (key) => appAddress(key),
  recordedIn: 'apps',
  // In flight before its create is sent (the API may not list apps), its id once known.
  record: {
    beforeCreate: (w, address) => w.appPending(address),
    confirmed: (w, address, id) => w.appIs(address, id),
    adopted: (w, address, id) => w.appIs(address, id),
  },
  desiredIn: (d) => d.apps,
  liveIn: (s) => s.apps,
  canonicalLive: (a) => canonicalApp(a),
  canonical: (spec) => canonicalApp(spec),
  fields: APP_TABLE,
  paths: APP_TABLE.paths,
  planJson: (d) => APP_TABLE.planJson(d),
  api: {
    create: async (c, spec) => {
      const made = await c.createApp(spec);
      return { live: made.app, secrets: made.secrets };
    },
    // null when the server has no GET /api/apps: nothing can tell whether an app exists.
    list: (c) => c.listApps(),
    get: (c, id) => c.getApp(id),
    update: (c, id, spec) => c.updateApp(id, spec),
    archive: (c, id) => c.archiveApp(id),
    restore: (c, id) => c.restoreApp(id),
  },
};
