// bench/plan-bound.mjs: the reads in a worker thread, posted back as text.
import { parentPort, workerData } from 'node:worker_threads';
import { planReadsAsText } from './bound-reads.mjs';

const { url, token, concurrency } = workerData;
parentPort.postMessage(await planReadsAsText(url, token, concurrency));
