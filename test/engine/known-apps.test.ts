// Which app creates apply refuses because the secrets file names a live app (known-apps.ts), on
// plain data: a client that cannot list apps and knows one app, and a record of two environments.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsKnownToSecretsFile } from '../../src/engine/known-apps.js';
import type { ApiClient } from '../../src/api/types.js';
import type { LiveApp } from '../../src/model/types.js';
import type { Plan } from '../../src/plan/types.js';
import { emptyScope, type RecordDocument } from '../../src/record/record.js';
import { emptyPlan } from '../report/sample-plan.js';
import { tempDir } from '../apply/cli-world.js';

const ADDRESS = 'app["com.example.wallet"]';

function plan(): Plan {
  const p = emptyPlan();
  p.changes = [{
    op: 'create', type: 'app', id: null, address: ADDRESS, fingerprint: null, fields: [],
    desired: { name: 'Wallet', package_name: 'com.example.wallet', webhook_url: null },
  }];
  p.summary.create = 1;
  return p;
}

/** This API: apps cannot be listed; app 1 is live with the config's package_name. */
const client = {
  listApps: async () => null,
  getApp: async (id: string): Promise<LiveApp | null> => (id === '1'
    ? { id: '1', name: 'Wallet', package_name: 'com.example.wallet', webhook_url: null, organization_id: 1, archived_at: null, updated_at: 't' }
    : null),
} as unknown as ApiClient;
const api = { client, appsListed: async () => false };

function secretsFile(id: string): string {
  const file = join(tempDir(), 's.json');
  writeFileSync(file, JSON.stringify({ [ADDRESS]: { id, token: 't', webhook_secret: null } }));
  return file;
}

function record(scopes: Record<string, string>): RecordDocument {
  const doc: RecordDocument = new Map();
  for (const [key, id] of Object.entries(scopes)) {
    const scope = emptyScope();
    scope.apps.set(ADDRESS, { id });
    doc.set(key, scope);
  }
  return doc;
}

describe('an app create the secrets file knows', () => {
  it('is refused when the id is live here with the same package_name and the record is lost', async () => {
    expect(await appsKnownToSecretsFile(plan(), secretsFile('1'), { ...api, record: { doc: new Map(), key: 'environment production' } }))
      .toEqual([{ address: ADDRESS, id: '1', archived: false }]);
  });

  it('is not looked into where the API lists apps (the planner matched by package_name), nor for an id not live here', async () => {
    expect(await appsKnownToSecretsFile(plan(), secretsFile('1'), { client, appsListed: async () => true })).toEqual([]);
    expect(await appsKnownToSecretsFile(plan(), secretsFile('2'), api)).toEqual([]);
  });

  it("is not refused when the record places that id in another environment: it is that environment's app", async () => {
    // One secrets file for staging and production; staging was applied last from here. Production's
    // app 1 is another app (made from another checkout): the secrets file says nothing about it.
    const doc = record({ 'environment staging': '1' });
    expect(await appsKnownToSecretsFile(plan(), secretsFile('1'), { ...api, record: { doc, key: 'environment production' } })).toEqual([]);
    // Another environment's line with another id: the secrets file's id is not that one's.
    expect(await appsKnownToSecretsFile(plan(), secretsFile('1'), { ...api, record: { doc: record({ 'environment staging': '7' }), key: 'environment production' } }))
      .toHaveLength(1);
  });
});
