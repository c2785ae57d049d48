// The one way menuctl writes a file (plan --out, drift --report-file, export, the secrets file,
// the applied-state record): the whole new content or the old file, never half of one.
//
// A temp file in the target's directory, created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, with a
// random name): a path planted in advance (a symlink to a victim file) makes the create fail
// rather than being followed or reused. Then rename over the target, which replaces a link
// rather than writing through it. The temp name has a fixed length, so any target name the
// file system accepts has a temp name it accepts too.
//
// Durable, not only atomic: the temp file's data is fsynced before the rename,
// and the directory after it. Without the first, a power loss can leave the renamed name pointing
// at a file whose data never reached the disk (an empty secrets file, tokens lost); without the
// second, the rename itself may be lost and the old content come back. The record is written
// after every confirmation, but RecordKeeper.flush coalesces, so the cost is per write, not per
// change (bench/fsync.mjs).

import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WriteOptions {
  /** File mode of the new file (default 0644); 0600 for files that hold secrets. */
  mode?: number;
  /** Create missing parent directories (default true). */
  mkdirs?: boolean;
}

/** Most bytes in one file name on the file systems menuctl runs on (ext4, APFS, NTFS, tmpfs). */
const NAME_MAX = 255;

const tempName = (): string => `.menuctl-${randomBytes(8).toString('hex')}.tmp`;

/**
 * Writes `content` to `path`, atomically and durably. Content given in pieces (an iterable of
 * strings) is written as it is made, in writes of ~64 KB, so a file longer than a string can
 * hold (a plan of 600,000 changes) can be written; an iterable that throws leaves the old file.
 */
export async function writeFileAtomic(path: string, content: string | Iterable<string>, options: WriteOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o644;
  const exact = options.mode !== undefined;
  if (options.mkdirs !== false) await mkdir(dirname(path), { recursive: true });
  nameProblem(path);
  const tmp = join(dirname(path), tempName());
  try {
    const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      if (typeof content === 'string') await fh.writeFile(content);
      else for (const piece of batched(content)) await writeAll(fh, Buffer.from(piece, 'utf8'));
      // An explicit mode is exact (a secret's file is 0600 whatever the umask); the default leaves the umask alone.
      if (exact) await fh.chmod(mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDirectory(dirname(path));
}

/** Writes of at least this many characters (the last one excepted): few calls, little memory. */
const BATCH = 65_536;

function* batched(chunks: Iterable<string>): Generator<string> {
  let batch = '';
  for (const chunk of chunks) {
    batch += chunk;
    if (batch.length >= BATCH) {
      yield batch;
      batch = '';
    }
  }
  if (batch !== '') yield batch;
}

/** A write may take fewer bytes than given (a signal, a full pipe): the rest is written after it. */
async function writeAll(fh: FileHandle, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await fh.write(bytes, at)).bytesWritten;
}

/** Codes of a platform or file system that cannot fsync a directory (Windows, some network mounts). */
const NO_DIRECTORY_SYNC = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP', 'EBADF']);

/**
 * Makes the rename itself durable. The new content is in place already: where the platform
 * cannot sync a directory, the write still succeeded, as durable as that platform allows.
 */
async function syncDirectory(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    await fh.sync();
  } catch (err) {
    if (!NO_DIRECTORY_SYNC.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await fh?.close();
  }
}

/** Throws when the file name is longer than file systems allow: found before anything is written. */
function nameProblem(path: string): void {
  const bytes = Buffer.byteLength(basename(path));
  if (bytes > NAME_MAX) {
    throw new Error(`${path}: the file name is ${bytes} bytes long; file systems allow ${NAME_MAX}: choose a shorter name`);
  }
}

/** What kind of thing a path is, without following a link. */
async function kindOf(path: string): Promise<string | null> {
  try {
    const st = await lstat(path);
    if (st.isFile()) return 'file';
    if (st.isSymbolicLink()) return 'a symbolic link';
    if (st.isDirectory()) return 'a directory';
    if (st.isFIFO()) return 'a FIFO (named pipe)';
    if (st.isSocket()) return 'a socket';
    return 'a device';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Checks, before the first write anywhere, that `path` can be written by writeFileAtomic:
 * it is a regular file or absent (a FIFO would block a reader forever, a link would be
 * replaced), its name is short enough, and a real temp file can be created and removed in its
 * directory. `what` names the file in messages ("secrets file", "record").
 */
export async function checkWritable(path: string, what: string): Promise<void> {
  checkName(path, what);
  const kind = await kindOf(path);
  if (kind !== null && kind !== 'file') {
    throw new Error(`cannot use ${path} as the ${what}: it is ${kind}, not a regular file; give the path of a regular file`);
  }
  const dir = dirname(path);
  const probe = join(dir, tempName());
  try {
    const fh = await open(probe, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    await fh.close();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'is not writable' : `cannot hold a new file (${code ?? (err as Error).message})`;
    throw new Error(`cannot write the ${what} ${path}: its directory ${dir} ${why}`);
  } finally {
    await rm(probe, { force: true });
  }
}

function checkName(path: string, what: string): void {
  try {
    nameProblem(path);
  } catch (err) {
    throw new Error(`cannot use ${path} as the ${what}: ${(err as Error).message.slice(path.length + 2)}`);
  }
}

/** Refuses to read anything but a regular file (a FIFO would block forever). null when absent. */
export async function readRegularFile(path: string, what: string): Promise<string | null> {
  checkName(path, what);
  const kind = await kindOf(path);
  if (kind === null) return null;
  if (kind !== 'file') throw new Error(`cannot use ${path} as the ${what}: it is ${kind}, not a regular file; give the path of a regular file`);
  const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}
