// Where the server keeps its database (and, beside it, the generated JWT secret). Checked
// before either is touched, so a wrong --data gives one message that names the path, whichever
// of the two files would have failed first.

import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/** null when `data` can be opened as far as its directory goes; else what is wrong with it. */
export function dataDirectoryProblem(data: string): string | null {
  if (data === ':memory:') return null;
  const dir = dirname(data);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `the directory of the database ${data} does not exist (${dir}): create it, or pass another --data (or --data :memory:)`;
    return `cannot use the directory of the database ${data} (${dir}): ${(err as Error).message}`;
  }
  if (!isDir) return `the database ${data} cannot be created: ${dir} is not a directory; pass another --data (or --data :memory:)`;
  if (statSync(data, { throwIfNoEntry: false })?.isDirectory()) {
    return `the database ${data} is a directory: pass the path of a file (it is created if missing), or --data :memory:`;
  }
  return null;
}
