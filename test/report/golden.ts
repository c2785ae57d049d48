// Golden files: renderings a person has read and approved. `UPDATE_GOLDEN=1 npx vitest run
// test/report` rewrites them; the diff then goes through review like any other change.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export function expectGolden(name: string, actual: string): void {
  const file = fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden file ${name} was missing and has been written: read it, then run again`);
    return;
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
