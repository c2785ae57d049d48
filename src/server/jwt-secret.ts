// JWT secret resolution, shared by `menuctl serve` and `menuctl token` so tokens minted by one
// verify on the other: --jwt-secret, then MENUCTL_JWT_SECRET, then a secret kept beside the
// database (`<data>.jwt-secret`, mode 0600, created on first use, reused on restart).

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

export interface SecretSources {
  flag?: string;
  env?: string;
  data: string;
  /** serve creates the file when missing; token only reads it (a stray secret would verify nothing). */
  create: boolean;
}

// A :memory: database lives as long as the process, and so does its secret.
let memorySecret: string | undefined;

export function secretFileFor(data: string): string {
  return `${data}.jwt-secret`;
}

export function resolveJwtSecret(s: SecretSources): string {
  if (s.flag) return s.flag;
  if (s.env) return s.env;
  if (s.data === ':memory:') {
    memorySecret ??= randomBytes(32).toString('hex');
    return memorySecret;
  }
  const file = secretFileFor(s.data);
  const existing = readSecret(file);
  if (existing !== null) return existing;
  if (!s.create) {
    throw new Error(
      `no JWT secret: pass --jwt-secret, set MENUCTL_JWT_SECRET, or point --data at the database of a server that has run (${file} not found)`,
    );
  }
  const fresh = randomBytes(32).toString('hex');
  try {
    // 'wx': if another process created it first, we read theirs instead of overwriting it.
    writeFileSync(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readSecret(file);
      if (raced !== null) return raced;
    }
    throw new Error(`cannot keep a generated JWT secret in ${file} (${(err as Error).message}): ` +
      'pass --jwt-secret or set MENUCTL_JWT_SECRET, or point --data at a writable directory');
  }
}

function readSecret(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text.length > 0 ? text : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
