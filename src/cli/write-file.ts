// Writes a whole file or nothing: a temp file beside the target, then rename. A crash or a
// full disk never leaves a half-written plan or report behind.

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { CliError } from './exit.js';

export async function writeFileAtomic(path: string, content: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(tmp, content, { mode });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

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

/** writeFileAtomic for a path the user named with `option`: a failure says where and why, not errno. */
export async function writeUserFile(option: string, path: string, content: string): Promise<void> {
  try {
    await writeFileAtomic(path, content);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CliError(`${option} ${path}: cannot write it (${WRITE_PROBLEMS[code] ?? (code || String(err))}). Choose a path you can write to.`);
  }
}
