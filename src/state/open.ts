// `--state URL` / MENUCTL_STATE to a backend (CONTRACT.md "State"). One line per backend; a new
// one (S3 with conditional writes, Terraform's http protocol) is its file, its line here, how
// shownUrl hides a secret its URL can carry, and the forms the help lists (docs/architecture.md
// "Adding a state backend"). The network backends are imported only when used, so a laptop's
// file record loads no driver.

import { isAbsolute, relative, resolve } from 'node:path';
import type { StateBackend } from './backend.js';
import { FileBackend } from './file.js';
// No driver: postgres-url.ts only parses and words messages.
import { hidePassword } from './postgres-url.js';

export interface OpenOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface BackendEntry {
  /** What the URL starts with. */
  scheme: RegExp;
  example: string;
  open(url: string, o: OpenOptions): Promise<StateBackend>;
}

const BACKENDS: BackendEntry[] = [
  { scheme: /^file:/i, example: 'file:menuctl.lock', open: async (url, o) => openFile(url.slice('file:'.length), o) },
  { scheme: /^git\+/i, example: 'git+URL#BRANCH', open: async (url, o) => (await import('./git.js')).openGitBackend(url, { env: o.env, cwd: o.cwd }) },
  { scheme: /^postgres(ql)?:\/\//i, example: 'postgres://USER@HOST:PORT/DB', open: async (url, o) => (await import('./postgres.js')).openPostgresBackend(url, { env: o.env }) },
];

/** The backend a state URL names; a URL no backend takes is refused with the forms accepted. */
export function openState(url: string, o: OpenOptions): Promise<StateBackend> {
  const entry = BACKENDS.find((b) => b.scheme.test(url));
  if (!entry) {
    throw new Error(`--state ${JSON.stringify(shownUrl(url))} is not a state URL: give one of ${BACKENDS.map((b) => b.example).join(', ')}`);
  }
  return entry.open(url, o);
}

/** `file:PATH` (relative to the working directory), `file:///abs/path` too. */
function openFile(rest: string, o: OpenOptions): FileBackend {
  const path = rest.startsWith('//') ? decodeURIComponent(rest.replace(/^\/\/(localhost)?/, '')) : rest;
  if (path === '') throw new Error('--state file: needs a path, e.g. file:menuctl.lock');
  const full = isAbsolute(path) ? path : resolve(o.cwd, path);
  return new FileBackend(full, relative(o.cwd, full) || full);
}

/**
 * A state URL as it may be printed: no password, whatever characters it holds (./postgres-url.ts
 * hidePassword), and no user name of an http(s) remote, which GitHub and GitLab take as a token.
 */
export function shownUrl(url: string): string {
  return hidePassword(url).replace(/^((?:git\+)?https?:\/\/)[^/:@]+@/i, '$1***@')
    // git's scp-like `user:pass@host:path` (refused, but named in the refusal).
    .replace(/^(git\+)(?![a-z][a-z0-9+.-]*:\/\/)[^/@:]+:[^@]*@/i, '$1***@');
}
