// Integration helpers: a real reference server, a real client, desired states built in code,
// and plans made by the real planner. Counting is done through the API, as a user would.
import { createClient } from '../../src/api/client.js';
import { readLiveState } from '../../src/api/read-live.js';
import type { ApiClient } from '../../src/api/types.js';
import type { DesiredAction, DesiredApp, DesiredParser, DesiredState } from '../../src/model/types.js';
import { buildPlan, type PlanOptions } from '../../src/plan/build-plan.js';
import type { Plan } from '../../src/plan/types.js';
import { wantParsers } from '../../src/plan/want-parsers.js';
import type { TestServer } from '../helpers/server.js';

export const OPERATOR_ID = 1662; // Areeba/MTN in data/world-operators.tsv

export function clientFor(server: TestServer, options: { token?: string; concurrency?: number } = {}): ApiClient {
  return createClient({
    baseUrl: server.url,
    token: options.token ?? server.token,
    concurrency: options.concurrency ?? 8,
    retry: { baseMs: 20, capMs: 400 },
  });
}

export function parser(category: string, extra: Partial<DesiredParser> = {}): DesiredParser {
  return { category, status: 'succeeded', target_type: 'ussd', sender: null, regex: `.*${category}.*`, user_message: '', ...extra };
}

export function action(name: string, parsers: DesiredParser[] = [], extra: Partial<DesiredAction> = {}): DesiredAction {
  return {
    name,
    root_code: '*144#',
    transport_type: 'ussd',
    operators: [{ ref: OPERATOR_ID }],
    steps: [{ kind: 'press', value: '1', expect: 'Balance' }, { kind: 'pin' }],
    parsers,
    tests: [],
    ...extra,
  };
}

export function app(pkg: string, extra: Partial<DesiredApp> = {}): DesiredApp {
  return { name: `App ${pkg}`, package_name: pkg, webhook_url: 'https://hooks.example.com/menu', ...extra };
}

export function state(actions: DesiredAction[], apps: DesiredApp[] = []): DesiredState {
  return { actions, apps, files: ['test.yaml'] };
}

/** n actions named `A000`.. with `perAction` parsers each. */
export function bulk(n: number, perAction: number): DesiredState {
  return state(Array.from({ length: n }, (_, i) =>
    action(`A${String(i).padStart(3, '0')}`, Array.from({ length: perAction }, (_, j) => parser(`p${j}`)))));
}

export async function planFor(client: ApiClient, desired: DesiredState, options: PlanOptions = {}): Promise<Plan> {
  const live = await readLiveState(client, { wantParsers: wantParsers(desired), concurrency: 8 });
  const { plan, diagnostics } = buildPlan(desired, live, options);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((d) => d.message).join('\n'));
  return plan;
}

/** Live counts through the API: active actions by name, active parsers by action name and category. */
export async function census(client: ApiClient): Promise<{ actions: Map<string, number>; parsers: Map<string, number>; activeParsers: number }> {
  const actions = new Map<string, number>();
  const parsers = new Map<string, number>();
  let activeParsers = 0;
  const live = (await client.listActions()).filter((a) => a.archived_at === null);
  const lists = await Promise.all(live.map((a) => client.listParsers(a.id)));
  live.forEach((a, i) => {
    actions.set(a.name, (actions.get(a.name) ?? 0) + 1);
    for (const p of lists[i]!) {
      if (p.archived_at !== null) continue;
      activeParsers++;
      const key = `${a.name}/${p.category}`;
      parsers.set(key, (parsers.get(key) ?? 0) + 1);
    }
  });
  return { actions, parsers, activeParsers };
}
