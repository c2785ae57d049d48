// Where created apps' secrets go, and the only place they go: a JSON file keyed by app address,
// mode 0600, merged with what is there, replaced atomically (write a temp file, then rename)
// so a crash never leaves half a file and never loses secrets written by an earlier run.
// With environments (`--env NAME`), an environment's entries sit in a section of their own,
// `"environment NAME": { address: entry }`, so one file serves staging and production without
// one overwriting the other (issue 24 item 6); a config without environments keeps the flat form.

import { checkWritable, readRegularFile, writeFileAtomic } from '../fs/atomic-write.js';
import type { AppSecrets } from '../model/types.js';

export interface SecretsEntry extends AppSecrets {
  id: string;
}
export type SecretsDocument = Record<string, SecretsEntry>;

/** Reads the file, or {} when it does not exist. Throws a clear error when it is not a JSON object. */
export async function readSecretsFile(file: string): Promise<SecretsDocument> {
  let text: string | null;
  try {
    text = await readRegularFile(file, 'secrets file');
  } catch (err) {
    const message = (err as Error).message;
    throw message.startsWith('cannot use ') ? err : new Error(`cannot read secrets file ${file}: ${message}`);
  }
  if (text === null) return {};
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

/** The section a config with environments keeps its entries in (the record's scope key too). */
export const secretsSection = (environment: string | null | undefined): string | undefined =>
  environment ? `environment ${environment}` : undefined;

/** The entries of one section (the whole file's top level when there is none). */
export function sectionOf(doc: SecretsDocument, section: string | undefined): SecretsDocument {
  if (section === undefined) return doc;
  const inner = (doc as unknown as Record<string, unknown>)[section];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as SecretsDocument) : {};
}

/** Reads one section of the file ({} when absent). */
export async function readSecretsSection(file: string, section: string | undefined): Promise<SecretsDocument> {
  return sectionOf(await readSecretsFile(file), section);
}

/**
 * Serialises writes: apps are created concurrently, and each secret is saved as soon as it
 * arrives so an interrupted run keeps every token it was given.
 */
export class SecretsWriter {
  private queue: Promise<void> = Promise.resolve();
  readonly written: string[] = [];

  constructor(readonly file: string, readonly section?: string) {}

  /**
   * Fails before any write to the API if the file cannot be used. Touches nothing: apply may
   * end up creating no app, and an existing file keeps its content and mode until a save.
   */
  async check(): Promise<void> {
    // A regular file or none, a name the file system takes, and a real temp file created and
    // removed beside it: what save() will do, tried before the API is touched.
    await checkWritable(this.file, 'secrets file');
    await readSecretsFile(this.file);
  }

  async save(address: string, entry: SecretsEntry): Promise<void> {
    await this.mutate((doc) => {
      // Another live app's token under this address (the app was re-created, e.g. --recreate of
      // one that did exist) is kept beside it, never overwritten: a token is never lost.
      const earlier = doc[address];
      if (earlier && earlier.id !== entry.id) doc[`${address} (id ${earlier.id})`] = earlier;
      // The same id with another token is another API's app (one file kept for two environments,
      // whose servers number apps alike): kept too. An app's token never changes on its own API.
      else if (earlier && earlier.token !== entry.token) doc[`${address} (id ${earlier.id}, another API)`] = earlier;
      doc[address] = { id: entry.id, token: entry.token, webhook_secret: entry.webhook_secret };
    });
    // Only once the file holds it: the report tells the user the token is in the file.
    this.written.push(address);
  }

  private mutate(change: (doc: SecretsDocument) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const doc = await readSecretsFile(this.file);
      if (this.section === undefined) change(doc);
      else {
        const all = doc as unknown as Record<string, unknown>;
        const inner = sectionOf(doc, this.section);
        change(inner);
        all[this.section] = inner;
      }
      await writeFileAtomic(this.file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600, mkdirs: false });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
