// The layer checker (scripts/check-layers.mjs) on small trees whose answer is known: if it could
// not see a cycle here, layers.test.ts's "no problem" on src/ would mean nothing.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-layers.mjs', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}/src`, import.meta.url));

interface Problem {
  kind: 'file-cycle' | 'folder-cycle' | 'layer' | 'outside' | 'unlayered';
  message: string;
}

function check(name: string): { code: number; problems: Problem[] } {
  try {
    const out = execFileSync(process.execPath, [SCRIPT, '--root', fixture(name), '--json'], { encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, problems: (JSON.parse(out) as { problems: Problem[] }).problems };
  } catch (err) {
    const e = err as { status: number; stdout: string };
    return { code: e.status, problems: (JSON.parse(e.stdout) as { problems: Problem[] }).problems };
  }
}

describe('check-layers', () => {
  it('passes a tree whose imports go down the layers', () => {
    expect(check('clean')).toEqual({ code: 0, problems: [] });
  });

  it('finds a cycle of type-only imports between two files', () => {
    expect(check('file-cycle')).toEqual({
      code: 1,
      problems: [{ kind: 'file-cycle', message: 'files in a cycle: model/a.ts, model/b.ts' }],
    });
  });

  it('finds a cycle made by dynamic import()s', () => {
    expect(check('dynamic-cycle')).toEqual({
      code: 1,
      problems: [{ kind: 'file-cycle', message: 'files in a cycle: cli/demo.ts, cli/main.ts' }],
    });
  });

  it('finds an import against the layers (an export ... from) and the folder cycle it makes', () => {
    const { code, problems } = check('upward');
    expect(code).toBe(1);
    expect(problems).toEqual([
      { kind: 'folder-cycle', message: 'folders in a cycle: model, plan' },
      { kind: 'layer', message: 'model/ imports plan/, which is above it: model/kinds.ts -> plan/plan.ts' },
    ]);
  });

  it('finds an import from test/', () => {
    expect(check('outside')).toEqual({
      code: 1,
      problems: [{ kind: 'outside', message: 'plan/plan.ts imports ../../test/helper.js (test/ is not part of the program)' }],
    });
  });

  it('ignores imports written in comments and strings', () => {
    expect(check('comment')).toEqual({ code: 0, problems: [] });
  });
});
