#!/usr/bin/env node
// What the durable atomic write costs (issue 28 item 7): writeFileAtomic, which fsyncs the temp
// file and the directory, against the same write without the syncs, for record-sized files.
// During apply the record is written after confirmations, coalesced (record-file.ts
// RecordKeeper.flush): one write per burst, not per change, so this is the per-burst price.
// Needs `npm run build`. Medians of RUNS writes; on a shared machine compare rows of one run.
//
//   node bench/fsync.mjs [--runs N] [--dir DIR]   (DIR: the file system to measure; default tmpdir)

import { mkdtempSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/paths.mjs';
import { median } from './lib/stats.mjs';

const flag = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const RUNS = Number(flag('--runs', 50));
const dir = mkdtempSync(join(flag('--dir', tmpdir()), 'menuctl-fsync-'));
const { writeFileAtomic } = await import(join(ROOT, 'dist/fs/atomic-write.js'));

async function unsynced(path, content) {
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  await fh.writeFile(content);
  await fh.close();
  await rename(tmp, path);
}

async function time(write, content) {
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await write(join(dir, 'record.json'), content);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

console.log(`file system: ${dir}; ${RUNS} writes each; median ms`);
console.log('bytes      no sync  fsync (temp + dir)');
for (const bytes of [1_000, 100_000, 2_000_000]) {
  const content = 'x'.repeat(bytes);
  const a = await time(unsynced, content);
  const b = await time(writeFileAtomic, content);
  console.log(`${String(bytes).padEnd(10)} ${a.toFixed(2).padStart(7)}  ${b.toFixed(2).padStart(7)}`);
}
rmSync(dir, { recursive: true, force: true });
