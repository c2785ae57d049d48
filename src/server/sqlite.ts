// better-sqlite3 is an optional peer dependency: only `serve` and `demo` need it, and installing
// it compiles a native module (over a minute), which a CLI user who never runs the server should
// not pay for (docs/api.md, "SQLite is optional"). So it is loaded here, on first use, and its
// absence becomes one line saying what to install instead of a stack of resolution paths.

import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type SqliteConstructor = typeof BetterSqlite3;

export class SqliteUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SqliteUnavailableError';
  }
}

let loaded: SqliteConstructor | undefined;

/** The better-sqlite3 constructor, with its native binding checked; throws SqliteUnavailableError. */
export function loadSqlite(): SqliteConstructor {
  if (loaded) return loaded;
  let sqlite: SqliteConstructor;
  try {
    sqlite = createRequire(import.meta.url)('better-sqlite3') as SqliteConstructor;
  } catch (err) {
    if (!isNotFound(err)) throw unusable(err);
    throw new SqliteUnavailableError(
      'the reference server needs SQLite, which is not installed: run `npm install better-sqlite3` ' +
      'where menuctl is installed (add --global for a global menuctl); it compiles a native module',
    );
  }
  // The binding is loaded by the first open, not by require: an install with --ignore-scripts
  // or for another Node version fails only here, so open a throwaway database now.
  try {
    new sqlite(':memory:').close();
  } catch (err) {
    throw unusable(err);
  }
  loaded = sqlite;
  return sqlite;
}

function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}

function unusable(err: unknown): SqliteUnavailableError {
  const text = err instanceof Error ? err.message : String(err);
  const why = /NODE_MODULE_VERSION|different Node\.js version/.test(text)
    ? 'it was built for another Node.js version'
    : /bindings file|Cannot find module|\.node\b/.test(text)
      ? 'its native module was never built (installed with --ignore-scripts?)'
      : `loading it failed (${firstLine(text)})`;
  return new SqliteUnavailableError(
    `the reference server needs SQLite, but better-sqlite3 cannot be used: ${why}; run \`npm rebuild better-sqlite3\` where menuctl is installed`,
  );
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.slice(0, 200);
}
