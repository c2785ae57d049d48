// The app kind: an Android app that receives results by webhook. Created with secrets (token,
// webhook secret), which are read here and go to the secrets file only (apply/secrets-file.ts).
// Below: its canonical form, request bodies, answer, plan JSON and API calls.

import { appAddress } from '../address.js';
import type { AppSecrets, ResolvedApp, LiveApp } from '../types.js';
import type { Kind } from './kind.js';
import { nullIfEmpty, pickDefined, str, strOrNull, type ApiResource } from './values.js';

export interface CanonicalApp {
  name: string;
  package_name: string;
  webhook_url: string | null;
}

export function canonicalApp(a: LiveApp | ResolvedApp): CanonicalApp {
  return {
    name: a.name,
    package_name: a.package_name,
    // An app without a webhook has null; '' would clear it the same way.
    webhook_url: nullIfEmpty(a.webhook_url),
  };
}

/** An app's request body, create or patch: fields of its resolved form. */
export interface AppBody {
  app: Partial<ResolvedApp>;
}

export function appBody(spec: ResolvedApp): AppBody {
  const app: Partial<ResolvedApp> = { name: spec.name, package_name: spec.package_name };
  if (spec.webhook_url !== null) app.webhook_url = spec.webhook_url;
  return { app };
}

export function appPatchBody(partial: Partial<ResolvedApp>): AppBody {
  return { app: pickDefined(partial) };
}

/** The app without its secrets (`token`, `webhook_secret` are dropped here). */
export function fromApiApp(json: ApiResource): LiveApp {
  const a = json.attributes;
  return {
    id: String(json.id),
    name: str(a.name),
    package_name: str(a.package_name),
    webhook_url: strOrNull(a.webhook_url),
    organization_id: Number(a.organization_id),
    archived_at: strOrNull(a.archived_at),
    updated_at: str(a.updated_at),
  };
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
  paths: ['name', 'package_name', 'webhook_url'],
  planJson: (d) => ({ name: d.name, package_name: d.package_name, webhook_url: d.webhook_url }),
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
