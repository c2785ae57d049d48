// src/ follows the layer order of docs/architecture.md ("Layers"): no import cycle between files
// or folders, every import between folders goes down, nothing comes from test/ or bench/.
// check-layers.test.ts shows the checker finds each of these on a tree that has it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-layers.mjs', import.meta.url));

it('src/ has no import cycle and no import against the layers', () => {
  let out: string;
  try {
    out = execFileSync(process.execPath, [SCRIPT, '--json'], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    out = (err as { stdout: string }).stdout;
  }
  const { files, problems } = JSON.parse(out) as { files: number; problems: { kind: string; message: string }[] };
  expect(files).toBeGreaterThan(200); // it read src/, not an empty folder
  expect(problems.map((p) => `${p.kind}: ${p.message}`)).toEqual([]);
});
