// The scenario folders again, with the live state served by the reference server (both modes of
// test/helpers/modes.ts) instead of read from live.json: the server is seeded with live.json's
// resources through the API, menuctl reads them back with its real client, and the plan must be
// the folder's expected-plan.json once the server's ids are named by live.json's ids again.
//
// What a server cannot reproduce is left out, by data, not by name: live-state warnings depend
// on the mode (checked apart), and in the spec-only mode (no GET /api/apps) live apps cannot be
// listed, so folders with live apps are planned against the full server only.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLiveState } from '../../src/api/read-live.js';
import type { ApiClient } from '../../src/api/types.js';
import { loadSources } from '../../src/config/load.js';
import type { Warning } from '../../src/model/diagnostic.js';
import { fingerprint } from '../../src/model/fingerprint.js';
import { kindOf } from '../../src/model/kinds/index.js';
import type { LiveState, ResourceType, Step } from '../../src/model/types.js';
import { buildPlan, type PlanOptions } from '../../src/plan/build-plan.js';
import { configDigest } from '../../src/plan/digest.js';
import type { Plan } from '../../src/plan/types.js';
import { wantParsers } from '../../src/plan/want-parsers.js';
import { clientFor } from '../apply/world.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCENARIOS = readdirSync(HERE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^\d{3}-/.test(d.name))
  .map((d) => d.name)
  .sort();

const readJson = <T>(dir: string, file: string, fallback?: T): T => {
  const path = join(HERE, dir, file);
  if (!existsSync(path) && fallback !== undefined) return fallback;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
};

/** A step as the API echoes it (its value) back into a step the API accepts. */
function stepOf(value: string): Step {
  if (value === 'pin' || value === 'ok') return { kind: value };
  return /^[0-9*#]+$/.test(value) ? { kind: 'press', value } : { kind: 'variable', name: value };
}

/** Ids per kind (the server numbers parsers and apps alike): live.json id -> server id. */
type Ids = Record<ResourceType, Map<string, string>>;

/** Creates live.json's resources through the API (archiving those archived). */
async function seed(client: ApiClient, live: LiveState): Promise<Ids> {
  const ids: Ids = { action: new Map(), parser: new Map(), app: new Map() };
  // The API echoes operator names, which are not unique: the k-th "MTN" of an action is the k-th in the catalog.
  const operatorIds = (names: string[]): number[] =>
    names.map((name, i) => live.operators.filter((o) => o.name === name)[names.slice(0, i).filter((n) => n === name).length]!.id);
  for (const a of live.actions) {
    const made = await client.createAction({
      name: a.name, root_code: a.root_code, transport_type: a.transport_type, operator_ids: operatorIds(a.operators), steps: a.steps.map(stepOf),
    });
    ids.action.set(a.id, made.id);
  }
  for (const p of live.parsers) {
    const made = await client.createParser(ids.action.get(p.action_id)!, {
      category: p.category, status: p.status, target_type: p.target_type, sender: p.sender, regex: p.regex, user_message: p.user_message,
    });
    ids.parser.set(p.id, made.id);
  }
  for (const a of live.apps) ids.app.set(a.id, (await client.createApp({ name: a.name, package_name: a.package_name, webhook_url: a.webhook_url })).app.id);
  for (const p of live.parsers) if (p.archived_at !== null) await client.archiveParser(ids.parser.get(p.id)!);
  for (const a of live.actions) if (a.archived_at !== null) await client.archiveAction(ids.action.get(a.id)!);
  for (const a of live.apps) if (a.archived_at !== null) await client.archiveApp(ids.app.get(a.id)!);
  return ids;
}

/** Pinned ids in the config name live.json's resources: point them at the server's. */
function configFor(dir: string, ids: Ids): string {
  const text = readFileSync(join(HERE, dir, 'config.yaml'), 'utf8');
  return text.replace(/^(\s*id: )(\S+)$/gm, (_, head: string, id: string) => `${head}${JSON.stringify(ids.action.get(id) ?? ids.parser.get(id) ?? ids.app.get(id) ?? id)}`);
}

/** The plan with the server's ids named by live.json's, and its hashes checked, then masked. */
function normalise(plan: Plan, live: LiveState, ids: Ids, digest: string): Plan {
  const back = (type: ResourceType) => new Map([...ids[type]].map(([a, b]) => [b, a]));
  const local = (type: ResourceType, id: string | null | undefined) => (id === null || id === undefined ? id : back(type).get(id) ?? id);
  expect(plan.config_digest).toBe(digest);
  const changes = plan.changes.map((c) => {
    if (c.id === null) {
      expect(c.fingerprint, c.address).toBeNull();
    } else {
      const resource = kindOf(c.type).liveIn(live).find((r: { id: string }) => r.id === c.id);
      expect(c.fingerprint, c.address).toBe(fingerprint(c.type, resource));
    }
    const out = { ...c, id: local(c.type, c.id), fingerprint: c.id === null ? null : '<fingerprint>' } as typeof c;
    if ('action_id' in c && c.action_id !== undefined) (out as { action_id: string | null }).action_id = local('action', c.action_id) as string | null;
    return out;
  });
  return {
    ...plan,
    config_digest: '<digest>',
    changes,
    unmanaged: plan.unmanaged.map((u) => ({ ...u, id: local(u.type, u.id)! })),
    warnings: plan.warnings.filter((w) => !w.code.startsWith('live.')),
  };
}

for (const mode of SERVER_MODES) {
  describe(`scenarios against the reference server (${mode.name})`, () => {
    // A server per folder: every live.json is organization 62's whole live state.
    let server: TestServer;
    beforeEach(async () => {
      server = await startTestServer(mode.options);
    });
    afterEach(() => server.close());

    for (const dir of SCENARIOS) {
      const live = readJson<LiveState>(dir, 'live.json');
      if (mode.specOnly && live.apps.length > 0) continue; // not reproducible there (see the top)
      it(dir, async () => {
        const client = clientFor(server, { token: await server.mintToken(live.organization_id ?? 1) });
        const ids = await seed(client, live);

        const loaded = loadSources([{ file: 'config.yaml', text: configFor(dir, ids) }], { env: {}, cwd: join(HERE, dir) });
        expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const desired = loaded.state!;
        const pinnedAppIds = desired.apps.flatMap((a) => (a.id !== undefined ? [a.id] : []));
        const read = await readLiveState(client, { wantParsers: wantParsers(desired), pinnedAppIds, concurrency: 4 });
        expect(read.warnings.map((w: Warning) => w.code)).toEqual(mode.specOnly ? ['live.apps-not-listed'] : []);

        const options = readJson<PlanOptions>(dir, 'options.json', {});
        const expected = readJson<Plan>(dir, 'expected-plan.json');
        const expectedErrors = readJson<{ code: string; address?: string }[]>(dir, 'expected-errors.json', []);
        const { plan, diagnostics } = buildPlan(desired, read, options);
        expect(diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, address: d.address }))).toEqual(expectedErrors);
        expect(normalise(plan, read, ids, configDigest(desired))).toEqual({
          ...expected,
          warnings: expected.warnings.filter((w) => !w.code.startsWith('live.')),
        });
      });
    }
  });
}
