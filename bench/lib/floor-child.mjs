// The I/O floor in a fresh process: `node bench/lib/floor-child.mjs plan|apply N P C`, talking
// to $BENCH_URL with $BENCH_TOKEN (never argv). Timed by the parent from spawn to exit, it is
// what any Node client pays at minimum, cold: process start, loading undici, un-JITted code.

import { actionBody, makeWorld, parserBody } from './world.mjs';
import { createWorld, makeAgent, planFloor } from './http.mjs';

const [mode, actions, parsers, concurrency] = process.argv.slice(2);
const c = Number(concurrency);
const agent = makeAgent(c);
const ctx = { url: process.env.BENCH_URL, token: process.env.BENCH_TOKEN, agent };
const requests = mode === 'plan'
  ? await planFloor(ctx, c)
  : await createWorld(ctx, makeWorld({ actions: Number(actions), parsersPerAction: Number(parsers) }), c, { actionBody, parserBody });
await agent.close();
process.stdout.write(`${JSON.stringify({ requests })}\n`);
