// What a GitHub Actions runner gives a step and takes from it: the event (GITHUB_EVENT_PATH),
// outputs (GITHUB_OUTPUT), the job summary (GITHUB_STEP_SUMMARY) and workflow commands on
// stdout. https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions

import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import type { Severity } from '../model/diagnostic.js';
import { escapeData, renderGithubAnnotations } from '../report/diagnostics.js';

type Env = Record<string, string | undefined>;

export interface PullRequest {
  number: number;
  /** The commit the pull request's head points at (GITHUB_SHA is the merge commit). */
  headSha: string;
  /** From another repository: the workflow gets no secrets and a read-only token. */
  fromFork: boolean;
}

export interface RunContext {
  apiUrl: string;
  repository: string | null;
  pullRequest: PullRequest | null;
  sha: string | null;
  runUrl: string | null;
}

interface EventPayload {
  pull_request?: { number?: number; head?: { sha?: string; repo?: { full_name?: string } | null } };
  repository?: { full_name?: string };
}

export function readContext(env: Env): RunContext {
  const repository = env.GITHUB_REPOSITORY || null;
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  return {
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    repository,
    pullRequest: pullRequestOf(env),
    sha: env.GITHUB_SHA || null,
    runUrl: repository && env.GITHUB_RUN_ID ? `${server}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : null,
  };
}

function pullRequestOf(env: Env): PullRequest | null {
  if (!/^pull_request(_target)?$/.test(env.GITHUB_EVENT_NAME ?? '') || !env.GITHUB_EVENT_PATH) return null;
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as EventPayload;
  const pr = event.pull_request;
  if (!pr || typeof pr.number !== 'number') return null;
  const base = event.repository?.full_name ?? env.GITHUB_REPOSITORY;
  // A deleted fork has no head repository: it is still not this one.
  const head = pr.head?.repo?.full_name ?? null;
  return { number: pr.number, headSha: pr.head?.sha ?? env.GITHUB_SHA ?? '', fromFork: head !== base };
}

/** Appends `name` to GITHUB_OUTPUT in the delimiter form, which any value survives. */
export function setOutput(env: Env, name: string, value: string): void {
  if (!env.GITHUB_OUTPUT) return;
  const delimiter = `menuctl_${randomBytes(8).toString('hex')}`;
  appendFileSync(env.GITHUB_OUTPUT, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

export function appendSummary(env: Env, markdown: string): void {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown.trimEnd()}\n\n`);
}

/** `::error title=menuctl <what>::message` (the same escaping as validate's annotations). */
export function errorAnnotation(what: string, message: string, severity: Severity = 'error'): string {
  return renderGithubAnnotations([{ severity, code: what, message }]);
}

/** `::notice::`, for fixed text of ours only: it is not escaped. */
export function notice(text: string): string {
  return `::notice title=menuctl::${text}\n`;
}

/**
 * `::add-mask::VALUE`, as @actions/core's setSecret writes it: the runner takes the line, never
 * shows it, and writes VALUE as `***` in everything the job logs from then on (later steps too).
 * Only under a runner (GITHUB_ACTIONS=true): anywhere else the line would print the value.
 */
export function addMask(env: Env, value: string): string {
  return env.GITHUB_ACTIONS === 'true' && value !== '' ? `::add-mask::${escapeData(value)}\n` : '';
}
