// Writing a file the user named on the command line: the one atomic writer (src/fs/atomic-write.ts),
// with a failure that says which option, which path and why, rather than an errno.

import { writeFileAtomic } from '../fs/atomic-write.js';
import { CliError } from './exit.js';
import type { SecretMask } from './secret-mask.js';

const WRITE_PROBLEMS: Record<string, string> = {
  EEXIST: 'a file is in the way of a directory',
  ENOTDIR: 'a file is in the way of a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ENOENT: 'no such directory',
};

/**
 * writeFileAtomic for a path the user named with `option`: a failure says where and why, not
 * errno. Known secrets (io.secrets) are written as `***` (content in pieces: each piece masked,
 * so a piece must hold whole values); a saved plan is checked instead (refusingSecretsInPlan),
 * since masking would change it.
 */
export async function writeUserFile(option: string, path: string, content: string | Iterable<string>, secrets?: SecretMask): Promise<void> {
  try {
    await writeFileAtomic(path, !secrets ? content : typeof content === 'string' ? secrets.mask(content) : masked(content, secrets));
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CliError(`${option} ${path}: cannot write it (${WRITE_PROBLEMS[code] ?? (code || (err as Error).message)}). Choose a path you can write to.`, { code: 'output.unwritable' });
  }
}

function* masked(chunks: Iterable<string>, secrets: SecretMask): Generator<string> {
  for (const chunk of chunks) yield secrets.mask(chunk);
}
