// Running the git binary for the git state backend (src/state/git.ts).
//
// Why the git command and not a git library: the user's credential helpers, SSH config and
// agent, `url.*.insteadOf` rewrites and proxies then work exactly as for their own git, in CI and
// on laptops, with nothing to configure twice. execFile with an argument array, never a shell:
// no argument is ever parsed by a shell, whatever a URL or a branch contains.

import { spawn } from 'node:child_process';
import { urlOrigin } from './git-url.js';
import type { RemoteCredentials } from './git-url.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunnerOptions {
  /** The scratch repository (--git-dir), or null for commands that make one. */
  gitDir: string | null;
  env: NodeJS.ProcessEnv;
  /** `-c key=value` settings for every call. */
  config: string[];
  timeoutMs: number;
  /** How messages name the state (no secret). */
  shown: string;
  /** Removes every secret from git's output before it reaches a message. */
  scrub: (text: string) => string;
}

/** For failures in the scratch repository, which are not the remote's. */
export const HINT_LOCAL = 'this is a failure of git in menuctl\'s scratch repository: check that git works and that the temporary directory has room';

/**
 * Git's output (refs, trees, messages) is small; this only bounds a hostile or broken remote.
 * A blob read (the record, which can be larger: issue 36.10) asks for no bound.
 */
const MAX_OUTPUT = 16 * 1024 * 1024;

export interface RunOptions {
  /** Written to git's stdin (a blob, a tree, a commit message): streamed, whatever its size. */
  input?: string;
  /** Collect stdout whole, however large (a blob's content); else past MAX_OUTPUT git is stopped. */
  unbounded?: boolean;
}

// Variables that would point git at another repository than the scratch one (menuctl run from
// a git hook has GIT_DIR set, for one), or, for a file:// remote, at other refs in it.
const REPOSITORY_VARIABLES = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR', 'GIT_SHALLOW_FILE', 'GIT_NAMESPACE',
];

/** The environment variables the credential helper reads: never a command-line argument. */
const USERNAME_VAR = 'MENUCTL_GIT_USERNAME';
const PASSWORD_VAR = 'MENUCTL_GIT_PASSWORD';
// git runs it as `sh -c '<this> "$@"' <this> get|store|erase`; only `get` is answered. printf,
// since some shells' echo reads backslashes in a password as escapes.
const CREDENTIAL_HELPER = `!f() { test "$1" = get || return 0; printf '%s\\n' "username=$${USERNAME_VAR}" "password=$${PASSWORD_VAR}"; }; f`;

/**
 * The child's environment: the user's, minus what would redirect git, never a prompt, and the
 * URL's credentials (if any) for the helper of credentialConfig.
 */
export function gitEnvironment(env: NodeJS.ProcessEnv, credentials: RemoteCredentials | null = null): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of REPOSITORY_VARIABLES) delete out[name];
  // A missing credential fails at once instead of waiting on a terminal nobody watches.
  out.GIT_TERMINAL_PROMPT = '0';
  delete out[USERNAME_VAR];
  delete out[PASSWORD_VAR];
  if (credentials) {
    out[USERNAME_VAR] = credentials.username;
    out[PASSWORD_VAR] = credentials.password;
  }
  return out;
}

/**
 * `-c` settings that give git the URL's credentials (from gitEnvironment) through a helper: an
 * argument (the URL itself, handed on to git-remote-https) is in `ps` for every user of the
 * machine, and a config file outlives a killed run. The user's own helpers are set aside (the
 * empty value resets the list), so none is asked instead or stores the password; the helper
 * answers only for the remote's host, not one a redirect leads to. Without credentials in the
 * URL nothing changes: the user's helpers work as for their own git.
 */
export function credentialConfig(remote: string, credentials: RemoteCredentials | null): string[] {
  if (!credentials) return [];
  const origin = urlOrigin(remote);
  return ['-c', 'credential.helper=', '-c', `credential.${origin ? `${origin}.` : ''}helper=${CREDENTIAL_HELPER}`];
}

export class GitRunner {
  constructor(private readonly o: GitRunnerOptions) {}

  /**
   * Runs `git ARGS` and resolves with its exit code and output, whatever the code; rejects only
   * when git could not run, did not finish within the timeout or said more than MAX_OUTPUT.
   * Output is collected as bytes and decoded once, so a character split between chunks survives.
   */
  run(args: string[], options: RunOptions = {}): Promise<GitResult> {
    const full = [...this.o.config, ...(this.o.gitDir ? [`--git-dir=${this.o.gitDir}`] : []), ...args];
    return new Promise((resolve, reject) => {
      const child = spawn('git', full, { env: this.o.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let outBytes = 0;
      let errBytes = 0;
      let stopped: 'timeout' | 'output' | null = null;
      const stop = (why: 'timeout' | 'output') => {
        stopped ??= why;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop('timeout'), this.o.timeoutMs);
      child.stdout.on('data', (c: Buffer) => {
        outBytes += c.length;
        if (!options.unbounded && outBytes > MAX_OUTPUT) return stop('output');
        out.push(c);
      });
      child.stderr.on('data', (c: Buffer) => {
        errBytes += c.length;
        if (errBytes <= MAX_OUTPUT) err.push(c);
      });
      let failed: NodeJS.ErrnoException | null = null;
      let done = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const stdout = Buffer.concat(out).toString('utf8');
        const stderr = Buffer.concat(err).toString('utf8');
        if (failed) return reject(this.runError(args, failed, stderr));
        if (stopped === 'timeout') return reject(this.stoppedError(args, stderr));
        if (stopped === 'output') return reject(new Error(`${this.o.shown}: git ${args[0]} said more than ${MAX_OUTPUT / 1024 / 1024} MB; ${HINT_LOCAL}`));
        if (code === null) return reject(new Error(`${this.o.shown}: git ${args[0]} was ended by ${signal ?? 'a signal'}; ${HINT_LOCAL}`));
        resolve({ code, stdout, stderr });
      };
      child.on('error', (e) => {
        failed = e;
        if (child.pid === undefined) finish(null, null); // never started: no exit will follow
      });
      // Once stopped, git's own end is enough: a helper it started (git-remote-https) may keep
      // the pipes open a while longer, and the caller is not kept waiting for it.
      child.on('exit', () => {
        if (stopped) finish(null, null);
      });
      child.on('close', (code, signal) => finish(code, signal));
      // Commands that take no input must not wait for any; one that exits early (an error) stops
      // reading, and the EPIPE that follows is not the error to report.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input ?? '');
    });
  }

  /** Runs git and returns its stdout; any exit code but 0 is an error saying what to do. */
  async ok(args: string[], hint: string, options?: RunOptions): Promise<string> {
    const r = await this.run(args, options);
    if (r.code !== 0) throw this.failure(args, r, hint);
    return r.stdout;
  }

  /** The Error for a git call that exited non-zero: the remote, git's last words, what to do. */
  failure(args: string[], r: GitResult, hint: string): Error {
    const said = lastLines(this.o.scrub(r.stderr || r.stdout));
    return new Error(`${this.o.shown}: git ${args[0]} failed (exit ${r.code})${said ? `: ${said}` : ''}; ${hint}`);
  }

  private runError(args: string[], e: NodeJS.ErrnoException, stderr: string): Error {
    if (e.code === 'ENOENT') {
      return new Error(`${this.o.shown}: cannot run git (not found on PATH): the git state backend uses the git command; install git or put it on PATH`);
    }
    const said = lastLines(this.o.scrub(stderr));
    return new Error(`${this.o.shown}: git ${args[0]} failed: ${this.o.scrub(e.message)}${said ? ` (${said})` : ''}`);
  }

  private stoppedError(args: string[], stderr: string): Error {
    const said = lastLines(this.o.scrub(stderr));
    return new Error(`${this.o.shown}: git ${args[0]} did not finish within ${this.o.timeoutMs / 1000} s and was stopped${said ? ` (${said})` : ''}; check the network and the remote's address, and that git is not waiting for a password or an SSH passphrase (menuctl never prompts: use a credential helper, an SSH agent or GIT_ASKPASS)`);
  }
}

/**
 * git's last few meaningful lines, on one line. Its `hint:` lines speak of git's own commands and
 * `To URL` repeats the remote; a server's `remote:` reason is kept.
 */
function lastLines(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('hint:') && !l.startsWith('To '));
  return lines.slice(-4).join(' / ');
}
