// Command-line options shared by the benches: --actions N --parsers N --runs N --concurrency N
// --latency 0,20 --json FILE --profile --record. Small on purpose: node:util parseArgs does the work.

import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MAIN } from './paths.mjs';

export function benchOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      actions: { type: 'string', default: '1000' },
      parsers: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '8' },
      latency: { type: 'string', default: '0,20' },
      json: { type: 'string' },
      profile: { type: 'boolean', default: false },
      record: { type: 'boolean', default: false },
    },
  });
  const int = (name, min) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number >= ${min}`);
    return n;
  };
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first with \`npx tsc -p .\``);
  return {
    actions: int('actions', 1),
    parsers: int('parsers', 1),
    runs: int('runs', 1),
    concurrency: int('concurrency', 1),
    latencies: values.latency.split(',').map((s) => Number(s.trim())),
    json: values.json,
    profile: values.profile,
    record: values.record,
  };
}
