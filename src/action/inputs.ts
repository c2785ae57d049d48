// The action's inputs, as the runner passes them: INPUT_<NAME> in the environment, the name
// upper-cased with spaces as underscores (hyphens stay). action.yml declares them.

export const COMMANDS = ['validate', 'test', 'plan', 'apply', 'drift', 'secrets pull'] as const;
export type ActionCommand = (typeof COMMANDS)[number];

/** Other spellings taken for a command: `secrets` has one subcommand, so it can only mean it. */
const ALIASES: Record<string, ActionCommand> = { secrets: 'secrets pull' };

export interface ActionInputs {
  command: ActionCommand;
  /** Config files or directories; empty means the CLI's default (./menuctl.yaml). */
  paths: string[];
  /** Passed as --env NAME; also keys the pull-request comment, so each environment has its own. */
  environment: string | null;
  extraFlags: string[];
  /** plan: where to save the plan. apply: the saved plan to carry out (apply --plan), if given. */
  planFile: string | null;
  /** plan on a pull request: upsert the plan comment. */
  comment: boolean;
  /** drift: fail the step when drift is found (exit 2), or only report it. */
  failOnDrift: boolean;
  githubToken: string | null;
  workingDirectory: string | null;
  /** plan: Hover webhook records to replay (menuctl replay --records), adding the behaviour section under the plan. */
  records: string[];
  /** Where the applied-state record lives (MENUCTL_STATE for the step): e.g. git+https://...#menuctl-state. */
  state: string | null;
  /** secrets pull: where the app secrets are written (--out); null: the default in RUNNER_TEMP. */
  secretsFile: string | null;
}

export class InputError extends Error {}

type Env = Record<string, string | undefined>;

export function readInputs(env: Env): ActionInputs {
  const given = input(env, 'command');
  const words = given.split(/\s+/).join(' ');
  const command = Object.hasOwn(ALIASES, words) ? ALIASES[words]! : words;
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new InputError(`input "command" must be one of ${COMMANDS.join(', ')} (got ${JSON.stringify(given)})`);
  }
  return {
    command: command as ActionCommand,
    paths: input(env, 'paths').split(/\s+/).filter(Boolean),
    environment: input(env, 'environment') || null,
    extraFlags: splitWords(input(env, 'extra-flags')),
    planFile: input(env, 'plan-file') || null,
    comment: bool(env, 'comment', true),
    failOnDrift: bool(env, 'fail-on-drift', true),
    githubToken: input(env, 'github-token') || null,
    workingDirectory: input(env, 'working-directory') || null,
    records: input(env, 'records').split(/\s+/).filter(Boolean),
    state: input(env, 'state') || null,
    secretsFile: input(env, 'secrets-file') || null,
  };
}

function input(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = input(env, name).toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new InputError(`input "${name}" must be true or false (got ${JSON.stringify(raw)})`);
}

/**
 * `--target 'action["Check balance"]' --prune` -> words, the way a POSIX shell splits them
 * (single and double quotes, backslash escapes) but with no expansion of any kind: the input
 * is data from the workflow file, never a script.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null; else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word ??= '';
      if (c === "'" || c === '"') quote = c;
      else if (c === '\\' && i + 1 < text.length) word += text[++i];
      else word += c;
    }
  }
  if (quote !== null) throw new InputError(`input "extra-flags" has an unclosed ${quote} quote`);
  if (word !== null) words.push(word);
  return words;
}
