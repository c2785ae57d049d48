// The one plan comment of a pull request, found by its marker (report/plan-markdown.ts) and
// edited in place, so a pull request never collects a comment per push. With an environment,
// a second marker line keys the comment, so staging and production plans do not overwrite
// each other. When planning fails, the previous comment is marked outdated rather than left
// looking current.

import { fetch } from 'undici';
import { PLAN_MARKER } from '../report/plan-markdown.js';

export interface GithubApi {
  apiUrl: string;
  repository: string;
  token: string;
}

export class GithubApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'GithubApiError';
  }
}

interface IssueComment {
  id: number;
  body?: string | null;
  /** GitHub's author; `type` is `Bot` for github-actions[bot] and other app tokens. */
  user?: { login?: string; type?: string } | null;
}

const ENV_MARKER = (env: string) => `<!-- menuctl:env=${env} -->`;
const OUTDATED_START = '<!-- menuctl:outdated -->';
const OUTDATED_END = '<!-- /menuctl:outdated -->';
const PER_PAGE = 100;

/** The comment body for a plan rendered by renderPlanMarkdown (which starts with PLAN_MARKER). */
export function planCommentBody(planMarkdown: string, environment: string | null, footer: string): string {
  const rest = planMarkdown.startsWith(PLAN_MARKER) ? planMarkdown.slice(PLAN_MARKER.length).replace(/^\n/, '') : planMarkdown;
  return [PLAN_MARKER, ...(environment ? [ENV_MARKER(environment)] : []), rest.trimEnd(), '', footer].join('\n');
}

/** Ours, and for this environment (none: a comment without an environment marker). */
export function isPlanComment(body: string, environment: string | null): boolean {
  if (!body.startsWith(PLAN_MARKER)) return false;
  const second = body.split('\n', 2)[1] ?? '';
  const env = /^<!-- menuctl:env=(.*) -->$/.exec(second)?.[1] ?? null;
  return env === environment;
}

/** The previous plan, headed by a warning that it is no longer what apply would do. */
export function outdatedBody(body: string, warning: string): string {
  const lines = body.split('\n');
  const markers = lines.filter((l, i) => i < 2 && (l === PLAN_MARKER || l.startsWith('<!-- menuctl:env=')));
  let rest = lines.slice(markers.length).join('\n');
  const end = rest.indexOf(OUTDATED_END);
  if (rest.startsWith(OUTDATED_START) && end !== -1) rest = rest.slice(end + OUTDATED_END.length).replace(/^\n/, '');
  const quoted = warning.split('\n').map((l) => `> ${l}`).join('\n');
  return [...markers, OUTDATED_START, '> [!CAUTION]', quoted, OUTDATED_END, rest].join('\n');
}

export type Upserted = { action: 'created' | 'updated'; id: number };

export async function upsertPlanComment(api: GithubApi, pr: number, environment: string | null, body: string): Promise<Upserted> {
  const existing = await findPlanComment(api, pr, environment);
  if (existing) {
    try {
      await call(api, 'PATCH', `/issues/comments/${existing.id}`, { body });
      return { action: 'updated', id: existing.id };
    } catch (err) {
      // Someone else's comment that quotes the marker (this token may not edit it), or one deleted
      // meanwhile: post the plan as a new comment rather than fail the run.
      if (!(err instanceof GithubApiError) || (err.status !== 403 && err.status !== 404)) throw err;
    }
  }
  const created = await call(api, 'POST', `/issues/${pr}/comments`, { body }) as IssueComment;
  return { action: 'created', id: created.id };
}

/** Marks the plan comment outdated; false when there is none (nothing to mislead a reviewer). */
export async function markPlanCommentOutdated(api: GithubApi, pr: number, environment: string | null, warning: string): Promise<boolean> {
  const existing = await findPlanComment(api, pr, environment);
  if (!existing) return false;
  await call(api, 'PATCH', `/issues/comments/${existing.id}`, { body: outdatedBody(existing.body ?? '', warning) });
  return true;
}

/**
 * The plan comment for this environment: one written by a bot (the action's usual token) before
 * one written by a person, who may have pasted the marker; the first of each otherwise.
 */
async function findPlanComment(api: GithubApi, pr: number, environment: string | null): Promise<IssueComment | undefined> {
  let byPerson: IssueComment | undefined;
  for (let page = 1; ; page += 1) {
    const comments = await call(api, 'GET', `/issues/${pr}/comments?per_page=${PER_PAGE}&page=${page}`) as IssueComment[];
    for (const c of comments) {
      if (!isPlanComment(c.body ?? '', environment)) continue;
      if (c.user?.type === 'Bot') return c;
      byPerson ??= c;
    }
    if (comments.length < PER_PAGE) return byPerson;
  }
}

async function call(api: GithubApi, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = `${api.apiUrl}/repos/${api.repository}${path}`;
  const res = await fetch(url, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${api.token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'menuctl-action',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    const detail = safeMessage(text);
    throw new GithubApiError(res.status, `GitHub API ${method} ${path.replace(/\?.*/, '')}: ${res.status}${detail ? ` ${detail}` : ''}`);
  }
  return text === '' ? null : JSON.parse(text);
}

/** GitHub's `{ "message": ... }`, never the whole body (it could echo a request header). */
function safeMessage(text: string): string {
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    return typeof m === 'string' ? m.slice(0, 200) : '';
  } catch {
    return '';
  }
}
