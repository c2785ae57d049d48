// Bare undici: the I/O floor loops, seeding, and live-state checks. One keep-alive Agent with
// `connections` sockets per origin and a worker pool of the same size: the least any client
// at that concurrency could do.

import { Agent, request } from 'undici';

export function makeAgent(connections = 8) {
  return new Agent({ connections, keepAliveTimeout: 30_000 });
}

/** Runs fn(item, index) over items with at most `concurrency` in flight. */
export async function pool(items, concurrency, fn) {
  let next = 0;
  const results = new Array(items.length);
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

async function call(ctx, method, path, body) {
  const res = await request(`${ctx.url}${path}`, {
    method,
    dispatcher: ctx.agent,
    headers: {
      authorization: ctx.token,
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  // The floor decodes every answer too: any client must read the JSON it asked for.
  const json = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

export const get = (ctx, path) => call(ctx, 'GET', path);
export const post = (ctx, path, body) => call(ctx, 'POST', path, body);

/** Every page of a list (the server pages at 1,000 by default: `links.next`). Resolves { data, requests }. */
export async function getAll(ctx, path) {
  const data = [];
  let requests = 0;
  for (let next = path; next;) {
    const page = await get(ctx, next);
    requests++;
    data.push(...page.data);
    const link = page.links?.next;
    next = typeof link === 'string' && link !== '' ? new URL(link, `${ctx.url}${next}`).href.slice(ctx.url.length) : null;
  }
  return { data, requests };
}

/**
 * The reads of a no-change plan: the three lists at once, then every action's parsers at
 * `concurrency`. Returns the number of requests made.
 */
export async function planFloor(ctx, concurrency) {
  const [actions, apps, operators] = await Promise.all([
    getAll(ctx, '/api/actions'),
    getAll(ctx, '/api/apps'),
    getAll(ctx, '/api/world_operators'),
  ]);
  await pool(actions.data, concurrency, (a) => get(ctx, `/api/actions/${encodeURIComponent(a.id)}/parsers`));
  return actions.requests + apps.requests + operators.requests + actions.data.length;
}

/**
 * The writes of an apply from empty: every action create, then every parser create with its
 * action's returned public id. Returns the number of requests made.
 */
export async function createWorld(ctx, world, concurrency, { actionBody, parserBody }) {
  const created = await pool(world.actions, concurrency, (a) => post(ctx, '/api/actions', actionBody(a)));
  const parsers = [];
  world.actions.forEach((a, i) => {
    for (const p of a.parsers) parsers.push([created[i].data.id, p]);
  });
  await pool(parsers, concurrency, ([id, p]) => post(ctx, '/api/parsers', parserBody(id, p)));
  return world.actions.length + parsers.length;
}

/** Live counts: active actions (and whether their names are unique) and active parsers. */
export async function countLive(ctx, concurrency) {
  const actions = (await getAll(ctx, '/api/actions')).data.filter((a) => a.attributes.archived_at === null);
  const names = new Set(actions.map((a) => a.attributes.name));
  const lists = await pool(actions, concurrency, (a) => get(ctx, `/api/actions/${encodeURIComponent(a.id)}/parsers`));
  const parsers = lists.flatMap((l) => l.data).filter((p) => p.attributes.archived_at === null);
  const perAction = new Set(lists.map((l) => new Set(l.data.map((p) => p.attributes.category)).size === l.data.length));
  return { actions: actions.length, uniqueNames: names.size, parsers: parsers.length, categoriesUnique: !perAction.has(false) };
}
