// The GitHub Action's entry point (action.yml, docs/ci.md): reads the inputs and the runner's
// context, runs one menuctl command in-process, and turns its result into what a workflow uses:
// outputs, the job summary, annotations, and on pull requests the one plan comment.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planOfDocument } from '../plan/plan-file.js';
import { readJsonFile } from '../fs/read-json.js';
import { fenced } from '../report/markdown-util.js';
import { renderPlanMarkdown } from '../report/plan-markdown.js';
import { REPLAY_HEADING } from '../report/replay.js';
import { changeCount } from '../report/plan-model.js';
import { EXIT } from '../cli/exit.js';
import { credentialVariable, type CredentialBase } from '../config/environments.js';
import { SecretMask } from '../cli/secret-mask.js';
import { errorLine, runMenuctl, type CliRun } from './cli.js';
import { GithubApiError, markPlanCommentOutdated, planCommentBody, upsertPlanComment, type GithubApi } from './comments.js';
import { InputError, readInputs, type ActionInputs } from './inputs.js';
import { addMask, appendSummary, errorAnnotation, notice, readContext, setOutput, type RunContext } from './runner.js';
import { secretValues } from './secrets.js';

type Env = Record<string, string | undefined>;

interface Step {
  inputs: ActionInputs;
  context: RunContext;
  env: Env;
  cwd: string;
  log: (text: string) => void;
  /** Known secrets of the step's environment: never in the summary or the comment (the CLI's own output is masked by the CLI). */
  secrets: SecretMask;
}

/** Runs the action; resolves to the step's exit code. */
export async function runAction(env: Env, log: (text: string) => void = (t) => process.stdout.write(t)): Promise<number> {
  let inputs: ActionInputs;
  try {
    inputs = readInputs(env);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    log(errorAnnotation('action', err.message));
    return EXIT.ERROR;
  }
  const context = readContext(env);
  const cwd = resolve(env.GITHUB_WORKSPACE || process.cwd(), inputs.workingDirectory ?? '.');
  // The `state` input is MENUCTL_STATE for every command the step runs (CONTRACT.md "State").
  const stepEnv = inputs.state ? { ...env, MENUCTL_STATE: inputs.state } : env;
  const step: Step = { inputs, context, env: stepEnv, cwd, log, secrets: SecretMask.fromEnv(stepEnv) };
  if (inputs.command !== 'validate' && inputs.command !== 'test' && context.pullRequest?.fromFork && !hasCredentials(env, inputs.environment)) {
    return skipFork(step);
  }
  switch (inputs.command) {
    case 'validate':
    case 'test':
      return offline(step);
    case 'plan':
      return plan(step);
    case 'apply':
      return apply(step);
    case 'drift':
      return drift(step);
    case 'secrets pull':
      return secretsPull(step);
  }
}

/**
 * GitHub gives a workflow run for a fork's pull request no secrets (a fork could otherwise
 * read them). Failing would only teach people to ignore red checks, so say why and stop.
 */
function skipFork(step: Step): number {
  const what = `menuctl ${step.inputs.command} skipped: this pull request comes from a fork, and GitHub gives such runs no secrets, so there are no API credentials. A maintainer who wants this step can push the branch to this repository.`;
  step.log(notice(what));
  appendSummary(step.env, `### ${what}`);
  setOutput(step.env, 'skipped', 'true');
  return EXIT.OK;
}

/** The same variables cli/connect.ts reads: the environment's own first, then the shared ones. */
function hasCredentials(env: Env, environment: string | null): boolean {
  const names = environment ? [(b: CredentialBase) => credentialVariable(b, environment), (b: CredentialBase) => b] : [(b: CredentialBase) => b];
  // Trimmed as connect.ts trims them: a secret holding only a newline is no credential.
  const set = (v: string | undefined) => Boolean(v?.trim());
  return names.some((name) => set(env[name('MENUCTL_TOKEN')]) || (set(env[name('MENUCTL_EMAIL')]) && set(env[name('MENUCTL_PASSWORD')])));
}

function argv(step: Step, extra: string[]): string[] {
  const { command, paths, environment, extraFlags } = step.inputs;
  // validate and test check every environment of the config; they take no --env.
  const env = environment && command !== 'validate' && command !== 'test' ? ['--env', environment] : [];
  return [...command.split(' '), ...paths, ...extra, ...env, ...extraFlags];
}

async function menuctl(step: Step, extra: string[] = []): Promise<CliRun> {
  setOutput(step.env, 'skipped', 'false');
  return runMenuctl(argv(step, extra), { env: step.env, cwd: step.cwd });
}

async function offline(step: Step): Promise<number> {
  const r = await menuctl(step);
  const verdict = r.code === EXIT.OK ? 'passed' : 'failed';
  appendSummary(step.env, `### menuctl ${step.inputs.command}: ${verdict}\n\n${fence(r.stdout + r.stderr)}`);
  return r.code;
}

async function plan(step: Step): Promise<number> {
  const planFile = resolve(step.cwd, step.inputs.planFile ?? join(step.env.RUNNER_TEMP || tmpdir(), 'menuctl-plan.json'));
  const r = await menuctl(step, ['--out', planFile, '--detailed-exitcode']);
  if (r.code !== EXIT.OK && r.code !== EXIT.CHANGES) {
    failed(step, r);
    await markCommentOutdated(step);
    return r.code;
  }
  // In pieces, as `apply --plan` reads it: a big plan's file is longer than a string can hold.
  const saved = planOfDocument(await readJsonFile(planFile));
  const behaviour = await replaySection(step);
  // The plan gives up the room the behaviour section takes; together they stay under GitHub's limit.
  // The plan file was refused if it held a known secret (cli/secret-mask.ts); masked again in case.
  const markdown = step.secrets.mask([renderPlanMarkdown(saved, { maxChars: PLAN_ROOM - (behaviour?.markdown.length ?? 0) }).trimEnd(), ...(behaviour ? [behaviour.markdown] : [])].join('\n\n'));
  setOutput(step.env, 'has-changes', String(changeCount(saved.summary) > 0));
  for (const [op, n] of Object.entries(saved.summary)) setOutput(step.env, op, String(n));
  setOutput(step.env, 'plan-file', planFile);
  appendSummary(step.env, markdown);
  const posted = await postComment(step, markdown);
  return posted && behaviour?.ok !== false ? EXIT.OK : EXIT.ERROR;
}

/** What the plan comment holds at most, plan and behaviour section together (GitHub: 65,536). */
const PLAN_ROOM = 60_000;

/**
 * With the `records` input: `menuctl replay` on the same config, compared with each record's own
 * outcome (what production did under the config applied today), as markdown under the plan.
 * A replay that fails (a broken record) says so in the section and fails the step.
 */
async function replaySection(step: Step): Promise<{ markdown: string; ok: boolean } | null> {
  if (step.inputs.records.length === 0) return null;
  const { paths, environment } = step.inputs;
  const env = environment ? ['--env', environment] : [];
  const r = await runMenuctl(['replay', ...paths, '--records', ...step.inputs.records, ...env, '--format', 'markdown'], { env: step.env, cwd: step.cwd });
  if (r.code === EXIT.OK) return { markdown: r.stdout.trimEnd(), ok: true };
  const reason = errorLine(r.stderr) ?? `exited ${r.code}`;
  step.log(errorAnnotation('replay', reason));
  return { markdown: `${REPLAY_HEADING}\n\n**menuctl replay failed:**\n\n${fenced('', [reason])}`, ok: false };
}

/** On a pull request: the plan as its one comment. False when writing it failed (not a 403). */
async function postComment(step: Step, markdown: string): Promise<boolean> {
  const pr = step.context.pullRequest;
  const api = commentApi(step);
  if (!pr || !api) return true;
  const body = step.secrets.mask(planCommentBody(markdown, step.inputs.environment, footer(step, pr.headSha)));
  return commentSafely(step, async () => {
    const done = await upsertPlanComment(api, pr.number, step.inputs.environment, body);
    step.log(`menuctl: ${done.action} the plan comment on pull request #${pr.number}\n`);
  });
}

async function markCommentOutdated(step: Step): Promise<void> {
  const pr = step.context.pullRequest;
  const api = commentApi(step);
  if (!pr || !api) return;
  const run = step.context.runUrl ? ` ([the run](${step.context.runUrl}))` : '';
  const warning = `**This plan is outdated.** Planning commit \`${short(pr.headSha)}\` failed${run}: ` +
    'what follows was planned for an earlier commit and is not what apply would do now.';
  await commentSafely(step, () => markPlanCommentOutdated(api, pr.number, step.inputs.environment, warning));
}

async function apply(step: Step): Promise<number> {
  const saved = step.inputs.planFile ? ['--plan', resolve(step.cwd, step.inputs.planFile)] : [];
  const r = await menuctl(step, ['--yes', ...saved]);
  if (r.code !== EXIT.OK) failed(step, r);
  else appendSummary(step.env, `### menuctl apply\n\n${fence(r.stdout)}`);
  return r.code;
}

async function drift(step: Step): Promise<number> {
  // drift writes its own markdown to GITHUB_STEP_SUMMARY.
  const r = await menuctl(step);
  if (r.code === EXIT.OK || r.code === EXIT.CHANGES) {
    const found = r.code === EXIT.CHANGES;
    setOutput(step.env, 'has-changes', String(found));
    if (!found) return EXIT.OK;
    // Which way out depends on what drifted (apply leaves unmanaged resources alone): the report says.
    const message = 'the live API differs from the configuration: the job summary lists each difference and what to do about it';
    step.log(errorAnnotation('drift', message, step.inputs.failOnDrift ? 'error' : 'warning'));
    return step.inputs.failOnDrift ? EXIT.ERROR : EXIT.OK;
  }
  failed(step, r);
  return r.code;
}

/**
 * After apply: the token and webhook secret of every managed app, read by the record's ids, to a
 * file (mode 0600, in RUNNER_TEMP unless `secrets-file` says where) for the job's next step to
 * hand to a secret store. The `secrets-file` output is the file's path; no value is ever in an
 * output, the summary or the log, and each is registered with the runner (`::add-mask::`) so
 * that whatever a later step prints shows it as `***`.
 */
async function secretsPull(step: Step): Promise<number> {
  const file = resolve(step.cwd, step.inputs.secretsFile ?? join(step.env.RUNNER_TEMP || tmpdir(), 'menuctl-app-secrets.json'));
  const r = await menuctl(step, ['--out', file]);
  // Written even when an app is missing (exit 1): the others' values are in it, so mask them.
  if (existsSync(file)) {
    for (const value of secretValues(await readFile(file, 'utf8'))) step.log(addMask(step.env, value));
  }
  if (r.errorCode === 'secrets.no-apps') {
    // A config without apps, or a record that has none yet: nothing to hand on is not a failure.
    const what = 'menuctl secrets pull: the record holds no app for this API, so there was nothing to pull and no file was written';
    step.log(notice(what));
    appendSummary(step.env, `### ${what}`);
    setOutput(step.env, 'secrets-file', '');
    return EXIT.OK;
  }
  if (r.code !== EXIT.OK) {
    failed(step, r);
    return r.code;
  }
  setOutput(step.env, 'secrets-file', file);
  appendSummary(step.env, `### menuctl secrets pull\n\n${fence(r.stdout + r.stderr)}`);
  return EXIT.OK;
}

function failed(step: Step, r: CliRun): void {
  const reason = errorLine(r.stderr) ?? `exited ${r.code}`;
  step.log(errorAnnotation(step.inputs.command, reason));
  appendSummary(step.env, `### menuctl ${step.inputs.command} failed\n\n${fence(r.stdout + r.stderr)}`);
}

function commentApi(step: Step): GithubApi | null {
  if (!step.inputs.comment || !step.context.pullRequest) return null;
  if (!step.inputs.githubToken || !step.context.repository) {
    step.log(errorAnnotation('plan comment', 'no github-token input (or GITHUB_REPOSITORY): the plan comment was not written', 'warning'));
    return null;
  }
  return { apiUrl: step.context.apiUrl, repository: step.context.repository, token: step.inputs.githubToken };
}

/**
 * A fork's token is read-only, and a job without `pull-requests: write` gets 403: that is a
 * warning (the plan is in the summary). Any other failure fails the step, because a comment
 * left showing an earlier plan would mislead the reviewer.
 */
async function commentSafely(step: Step, write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    // undici's fetch rejects with a TypeError when there is no answer at all.
    if (!(err instanceof GithubApiError) && !(err instanceof TypeError)) throw err;
    const forbidden = err instanceof GithubApiError && (err.status === 403 || err.status === 404);
    const hint = forbidden ? ': give the job `permissions: pull-requests: write` (a fork\'s pull request never has it)' : '';
    const what = err instanceof GithubApiError ? err.message : `no answer from the GitHub API at ${step.context.apiUrl} (${causeCode(err)})`;
    step.log(errorAnnotation('plan comment', `${what}${hint}`, forbidden ? 'warning' : 'error'));
    return forbidden;
  }
}

function causeCode(err: Error): string {
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : err.message;
}

function footer(step: Step, sha: string): string {
  const env = step.inputs.environment ? ` for environment \`${step.inputs.environment}\`` : '';
  const run = step.context.runUrl ? ` · [workflow run](${step.context.runUrl})` : '';
  return `<sub>Planned${env} at commit \`${short(sha)}\`${run}. Apply runs on merge and refuses a plan the live API has moved away from.</sub>`;
}

const short = (sha: string) => sha.slice(0, 7);

/** A fenced block for the summary, kept well under the 1 MiB a step summary may hold. */
function fence(text: string, max = 60_000): string {
  const body = text.length > max ? `${text.slice(0, max)}\n... (cut: the whole output is in the log)` : text;
  return fenced('', [body.trimEnd()]);
}

runAction(process.env).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    process.stdout.write(errorAnnotation('action', err instanceof Error ? err.message : String(err)));
    process.exitCode = EXIT.ERROR;
  },
);
