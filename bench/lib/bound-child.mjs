// bench/plan-bound.mjs, in a fresh process: `node bench/lib/bound-child.mjs seq|worker CONFIG C`.
// menuctl's own config load (dist/config/load.js, as `plan` runs it), and the plan's 1,003 reads
// by bare undici, either one after the other (seq) or at once, the reads in a worker thread
// (worker). Neither makes menuctl's checks of the answers or the plan: a bound, not a client.

import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './paths.mjs';
import { planReadsAsText } from './bound-reads.mjs';

const [mode, cfg, concurrency] = process.argv.slice(2);
const shared = { url: process.env.BENCH_URL, token: process.env.BENCH_TOKEN, concurrency: Number(concurrency) };
const worker = mode === 'worker' ? new Worker(new URL('./bound-worker.mjs', import.meta.url), { workerData: shared }) : null;
const reads = worker ? new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); }) : null;

const { loadConfig } = await import(pathToFileURL(join(ROOT, 'dist', 'config', 'load.js')).href);
const loaded = await loadConfig([cfg], { env: process.env, cwd: process.cwd() });
if (loaded.state === null) throw new Error(`${cfg}: not a valid config`);

const answers = reads ? await reads : await planReadsAsText(shared.url, shared.token, shared.concurrency);
// Every answer decoded on the planning thread, as a client must before comparing.
for (const pages of answers.lists) for (const page of pages) JSON.parse(page);
for (const text of answers.parsers) JSON.parse(text);
process.stdout.write(`${JSON.stringify({ requests: answers.requests })}\n`);
