// A secrets file inside a git work tree that git would commit is a leak waiting for `git add .`
// said once, with the fix. Asked of the `git` binary; no git, no warning.

import { execFile } from 'node:child_process';
import { dirname, relative } from 'node:path';
import type { Io } from './io.js';

function git(args: string[], cwd: string): Promise<number> {
  return new Promise((done) => {
    execFile('git', args, { cwd, timeout: 10_000, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (err) => {
      done(err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1);
    });
  });
}

/** True when `file` sits in a git work tree and is not ignored there. */
export async function committable(file: string): Promise<boolean> {
  const dir = dirname(file);
  if ((await git(['rev-parse', '--is-inside-work-tree'], dir)) !== 0) return false;
  // check-ignore: 0 ignored, 1 not ignored, 128 error (outside the tree).
  return (await git(['check-ignore', '-q', '--no-index', file], dir)) === 1;
}

export async function warnIfCommittable(file: string, io: Io): Promise<void> {
  if (!(await committable(file))) return;
  const shown = relative(io.cwd, file) || file;
  io.stderr.write(`Warning: the secrets file ${shown} is inside a git work tree and not ignored: a \`git add\` would commit app tokens. Add it to .gitignore, or keep it outside the repository (e.g. $RUNNER_TEMP in CI, then hand it to your secret store).\n`);
}
