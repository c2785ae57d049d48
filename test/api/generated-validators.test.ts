// src/generated/*.ts are compiled from schemas/ (API responses, config); this fails when a schema
// changed and the generated validators did not.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('generated API validators', () => {
  it('are current with the schemas', () => {
    expect(() => execFileSync(process.execPath, ['scripts/gen-validators.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
