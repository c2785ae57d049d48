// Preloaded with `node --import` when GNU time is missing: writes the process's peak RSS (KB)
// to $MENUCTL_BENCH_RSS_FILE as it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.MENUCTL_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, `${process.resourceUsage().maxRSS}\n`));
