// docs/cli.md is generated from --help; this fails when a flag changed and the docs did not.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('docs/cli.md', () => {
  it('matches the commands\' --help (dist is built by pretest)', () => {
    expect(() => execFileSync(process.execPath, ['scripts/cli-docs.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
