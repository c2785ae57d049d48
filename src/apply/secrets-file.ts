// Where created apps' secrets go, and the only place they go: a JSON file keyed by app address,
// mode 0600, merged with what is there, replaced atomically (write a temp file, then rename)
// so a crash never leaves half a file and never loses secrets written by an earlier run.

import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AppSecrets } from '../model/types.js';

export interface SecretsEntry extends AppSecrets {
  id: string;
}
export type SecretsDocument = Record<string, SecretsEntry>;

/** Reads the file, or {} when it does not exist. Throws a clear error when it is not a JSON object. */
export async function readSecretsFile(file: string): Promise<SecretsDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read secrets file ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`secrets file ${file} is not valid JSON; fix or move it, then run apply again`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new Error(`secrets file ${file} must hold a JSON object keyed by app address`);
  }
  return doc as SecretsDocument;
}

/**
 * Serialises writes: apps are created concurrently, and each secret is saved as soon as it
 * arrives so an interrupted run keeps every token it was given.
 */
export class SecretsWriter {
  private queue: Promise<void> = Promise.resolve();
  readonly written: string[] = [];

  constructor(readonly file: string) {}

  /**
   * Fails before any write to the API if the file cannot be used. Touches nothing: apply may
   * end up creating no app, and an existing file keeps its content and mode until a save.
   */
  async check(): Promise<void> {
    await readSecretsFile(this.file);
    // Saves write a temp file next to it and rename it over, so the directory must be writable
    // (whether or not the file exists yet).
    const dir = dirname(this.file);
    try {
      await access(dir, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory' : 'is not writable';
      throw new Error(`cannot write secrets file ${this.file}: its directory ${dir} ${why}`);
    }
  }

  async save(address: string, entry: SecretsEntry): Promise<void> {
    await this.mutate((doc) => {
      doc[address] = { id: entry.id, token: entry.token, webhook_secret: entry.webhook_secret };
    });
    // Only once the file holds it: the report tells the user the token is in the file.
    this.written.push(address);
  }

  private mutate(change: (doc: SecretsDocument) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const doc = await readSecretsFile(this.file);
      change(doc);
      await writeAtomically(this.file, `${JSON.stringify(doc, null, 2)}\n`);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * Not src/cli/write-file.ts writeFileAtomic: apply must not import cli, and secrets need more.
 * The temp file is created with `wx` (never follows or reuses an existing path, e.g. a symlink
 * planted next to the file) and mode 0600 from its first byte, so a token is never readable by
 * others even for a moment. No fsync: a crash loses at most this save, never the previous file.
 */
async function writeAtomically(file: string, content: string): Promise<void> {
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, content, { mode: 0o600, flag: 'wx' });
    await chmod(tmp, 0o600); // the umask may have narrowed it further; never wider
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
