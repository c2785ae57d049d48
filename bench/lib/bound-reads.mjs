// The reads of a no-change plan (bench/lib/http.mjs planFloor), answers kept as text: what a
// reader thread would hand to the thread that plans. Used by bench/plan-bound.mjs.

import { Agent, request } from 'undici';

/** Resolves { lists: string[][], parsers: string[], requests }. */
export async function planReadsAsText(url, token, concurrency) {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 30_000 });
  let requests = 0;
  const get = async (path) => {
    const res = await request(`${url}${path}`, { dispatcher: agent, headers: { authorization: token, accept: 'application/json' } });
    const text = await res.body.text();
    requests++;
    if (res.statusCode >= 300) throw new Error(`GET ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
    return text;
  };
  // Every page of a list; the action list is decoded here, since the parser reads need its ids.
  const all = async (path) => {
    const pages = [];
    for (let next = path; next;) {
      const text = await get(next);
      pages.push(text);
      const link = JSON.parse(text).links?.next;
      next = typeof link === 'string' && link !== '' ? new URL(link, `${url}${next}`).href.slice(url.length) : null;
    }
    return pages;
  };
  const lists = await Promise.all([all('/api/actions'), all('/api/apps'), all('/api/world_operators')]);
  const ids = lists[0].flatMap((page) => JSON.parse(page).data.map((a) => a.id));
  const parsers = new Array(ids.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, async () => {
    while (next < ids.length) {
      const i = next++;
      parsers[i] = await get(`/api/actions/${encodeURIComponent(ids[i])}/parsers`);
    }
  }));
  await agent.close();
  return { lists, parsers, requests };
}
