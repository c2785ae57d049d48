// An in-memory ApiClient for unit tests of the engine's logic (ordering, dependents, the
// no-duplicate rule with a lost answer after the write: a timeout the reference server cannot
// produce on demand). Integration tests use the real server instead.

import type { ApiClient } from '../../src/api/types.js';
import type { AppSecrets, ResolvedApp, LiveAction, LiveApp, LiveParser, ResolvedParser } from '../../src/model/types.js';
import type { ResolvedAction } from '../../src/plan/types.js';

export type Hook = (call: string, arg: string) => 'lose-after-write' | 'lose-before-write' | Error | void | Promise<void>;

export class FakeClient implements ApiClient {
  actions: LiveAction[] = [];
  parsers: LiveParser[] = [];
  apps: LiveApp[] = [];
  calls: string[] = [];
  readonly stats = { requests: 0, retries: 0 };
  hook: Hook = () => undefined;
  private seq = 100;

  async organizationId() { return 1; }
  async listActions() { await this.call('listActions', ''); return this.actions.map((a) => ({ ...a })); }
  async getAction(id: string) { await this.call('getAction', id); return this.actions.find((a) => a.id === id) ?? null; }
  async listParsers(actionId: string) { await this.call('listParsers', actionId); return this.parsers.filter((p) => p.action_id === actionId); }
  async getParser(id: string) { await this.call('getParser', id); return this.parsers.find((p) => p.id === id) ?? null; }
  async listApps() { await this.call('listApps', ''); return this.apps.map((a) => ({ ...a })); }
  async getApp(id: string) { await this.call('getApp', id); return this.apps.find((a) => a.id === id) ?? null; }
  async listOperators() { return []; }

  async createAction(spec: ResolvedAction) {
    return this.write('createAction', spec.name, () => {
      const a: LiveAction = {
        id: `a${this.seq++}`, name: spec.name, root_code: spec.root_code, transport_type: spec.transport_type,
        operators: [], steps: [], description: null, organization_id: 1, archived_at: null, updated_at: 't',
      };
      this.actions.push(a);
      return a;
    });
  }
  async updateAction(id: string, spec: ResolvedAction) {
    await this.write('updateAction', id, () => Object.assign(this.must(this.actions, id), { name: spec.name, root_code: spec.root_code }));
  }
  async archiveAction(id: string) { await this.write('archiveAction', id, () => { this.must(this.actions, id).archived_at = 'now'; }); }
  async restoreAction(id: string) { return this.write('restoreAction', id, () => Object.assign(this.must(this.actions, id), { archived_at: null })); }

  async createParser(actionId: string, spec: ResolvedParser) {
    return this.write('createParser', `${actionId}/${spec.category}`, () => {
      if (!this.actions.some((a) => a.id === actionId)) throw Object.assign(new Error('404 not_found'), { status: 404 });
      const p: LiveParser = { ...spec, id: String(this.seq++), action_id: actionId, archived_at: null, updated_at: 't' };
      this.parsers.push(p);
      return p;
    });
  }
  async updateParser(id: string, spec: Partial<ResolvedParser>) { return this.write('updateParser', id, () => Object.assign(this.must(this.parsers, id), spec)); }
  async archiveParser(id: string) { await this.write('archiveParser', id, () => { this.must(this.parsers, id).archived_at = 'now'; }); }
  async restoreParser(id: string) { return this.write('restoreParser', id, () => Object.assign(this.must(this.parsers, id), { archived_at: null })); }

  async createApp(spec: ResolvedApp): Promise<{ app: LiveApp; secrets: AppSecrets }> {
    return this.write('createApp', spec.package_name, () => {
      const app: LiveApp = { ...spec, id: String(this.seq++), organization_id: 1, archived_at: null, updated_at: 't' };
      this.apps.push(app);
      return { app, secrets: secretsOf(app) };
    });
  }
  async getAppWithSecrets(id: string) {
    await this.call('getAppWithSecrets', id);
    const app = this.apps.find((a) => a.id === id);
    return app ? { app, secrets: secretsOf(app) } : null;
  }
  async updateApp(id: string, spec: Partial<ResolvedApp>) { return this.write('updateApp', id, () => Object.assign(this.must(this.apps, id), spec)); }
  async archiveApp(id: string) { await this.write('archiveApp', id, () => { this.must(this.apps, id).archived_at = 'now'; }); }
  async restoreApp(id: string) { return this.write('restoreApp', id, () => Object.assign(this.must(this.apps, id), { archived_at: null })); }
  async close() {}

  private async call(name: string, arg: string) {
    this.calls.push(`${name} ${arg}`);
    this.stats.requests++;
    const r = await this.hook(name, arg);
    if (r instanceof Error) throw r;
  }

  private async write<T>(name: string, arg: string, act: () => T): Promise<T> {
    this.calls.push(`${name} ${arg}`);
    this.stats.requests++;
    await new Promise((r) => setImmediate(r));
    const r = await this.hook(name, arg);
    if (r instanceof Error) throw r;
    if (r === 'lose-before-write') throw lost();
    const value = act();
    if (r === 'lose-after-write') throw lost();
    return value;
  }

  private must<T extends { id: string }>(list: T[], id: string): T {
    const found = list.find((x) => x.id === id);
    if (!found) throw Object.assign(new Error(`404 not_found ${id}`), { status: 404, code: 'not_found' });
    return found;
  }
}

function lost(): Error {
  return Object.assign(new Error('POST: no answer: connection reset by the server'), { outcome: 'unknown', status: null });
}

function secretsOf(app: LiveApp): AppSecrets {
  return { token: `tok-${app.id}-SECRET`, webhook_secret: app.webhook_url ? `whs-${app.id}-SECRET` : null };
}
