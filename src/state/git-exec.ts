// Running the git binary for the git state backend (src/state/git.ts).
//
// Why the git command and not a git library: the user's credential helpers, SSH config and
// agent, `url.*.insteadOf` rewrites and proxies then work exactly as for their own git, in CI and
// on laptops, with nothing to configure twice. execFile with an argument array, never a shell:
// no argument is ever parsed by a shell, whatever a URL or a branch contains.

import { execFile } from 'node:child_process';

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

/** The record and lock files are small; this only bounds a hostile or broken remote. */
const MAX_BUFFER = 64 * 1024 * 1024;

// Variables that would point git at another repository than the scratch one (menuctl run from
// a git hook has GIT_DIR set, for one), or, for a file:// remote, at other refs in it.
const REPOSITORY_VARIABLES = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR', 'GIT_SHALLOW_FILE', 'GIT_NAMESPACE',
];

/** The child's environment: the user's, minus what would redirect git, and never a prompt. */
export function gitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of REPOSITORY_VARIABLES) delete out[name];
  // A missing credential fails at once instead of waiting on a terminal nobody watches.
  out.GIT_TERMINAL_PROMPT = '0';
  return out;
}

export class GitRunner {
  constructor(private readonly o: GitRunnerOptions) {}

  /**
   * Runs `git ARGS` and resolves with its exit code and output, whatever the code; rejects only
   * when git could not run or did not finish within the timeout.
   */
  run(args: string[], input?: string): Promise<GitResult> {
    const full = [...this.o.config, ...(this.o.gitDir ? [`--git-dir=${this.o.gitDir}`] : []), ...args];
    return new Promise((resolve, reject) => {
      const child = execFile('git', full, {
        env: this.o.env,
        timeout: this.o.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_BUFFER,
        encoding: 'utf8',
        windowsHide: true,
      }, (err, stdout, stderr) => {
        if (!err) return resolve({ code: 0, stdout, stderr });
        const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: number | string };
        if (typeof e.code === 'number') return resolve({ code: e.code, stdout, stderr });
        reject(this.runError(args, e, stderr));
      });
      // Commands that take no input must not wait for any.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input ?? '');
    });
  }

  /** Runs git and returns its stdout; any exit code but 0 is an error saying what to do. */
  async ok(args: string[], hint: string, input?: string): Promise<string> {
    const r = await this.run(args, input);
    if (r.code !== 0) throw this.failure(args, r, hint);
    return r.stdout;
  }

  /** The Error for a git call that exited non-zero: the remote, git's last words, what to do. */
  failure(args: string[], r: GitResult, hint: string): Error {
    const said = lastLines(this.o.scrub(r.stderr || r.stdout));
    return new Error(`${this.o.shown}: git ${args[0]} failed (exit ${r.code})${said ? `: ${said}` : ''}; ${hint}`);
  }

  private runError(args: string[], e: NodeJS.ErrnoException & { killed?: boolean; signal?: string | null }, stderr: string): Error {
    const verb = `git ${args[0]}`;
    if (e.code === 'ENOENT') {
      return new Error(`${this.o.shown}: cannot run git (not found on PATH): the git state backend uses the git command; install git or put it on PATH`);
    }
    if (e.killed || e.signal) {
      const said = lastLines(this.o.scrub(stderr));
      return new Error(`${this.o.shown}: ${verb} did not finish within ${this.o.timeoutMs / 1000} s and was stopped${said ? ` (${said})` : ''}; check the network and the remote's address, and that git is not waiting for a password or an SSH passphrase (menuctl never prompts: use a credential helper, an SSH agent or GIT_ASKPASS)`);
    }
    return new Error(`${this.o.shown}: ${verb} failed: ${this.o.scrub(e.message)}`);
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
