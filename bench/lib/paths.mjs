// Where the benches find the built CLI and put their throwaway files.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The package's bin (the bundled CLI, scripts/build-cli.mjs); MENUCTL_BENCH_MAIN: another build's
// dist/cli/main.js or dist/bin/menuctl.js, to measure a before and an after.
export const MAIN = process.env.MENUCTL_BENCH_MAIN ? resolve(process.env.MENUCTL_BENCH_MAIN) : join(ROOT, 'dist', 'bin', 'menuctl.js');

/** A temporary directory removed at process exit (benches write databases and configs there). */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `menuctl-bench-${prefix}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
