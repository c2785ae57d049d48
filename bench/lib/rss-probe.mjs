// Preloaded with `node --import` when GNU time is missing: writes the process's peak RSS (KB) and CPU seconds (user, system)
// to $MENUCTL_BENCH_RSS_FILE as it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.MENUCTL_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, `${u.maxRSS} ${u.userCPUTime / 1e6} ${u.systemCPUTime / 1e6}\n`);
  });
}
