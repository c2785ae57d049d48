// The GitHub Action's `records` input (issue 27 item 4): plan on a pull request adds the behaviour
// section under the plan, run as a runner runs the committed bundle, against the reference server
// and a stand-in for the GitHub API.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_MARKER } from '../../src/report/plan-markdown.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startGithubStandIn, type GithubStandIn } from '../action/github-stand-in.js';

const BUNDLE = join(resolve(import.meta.dirname, '../..'), 'action/bundle/main.mjs');
const REPO = 'acme/menus';
const TOKEN = 'ghs_standInToken0123456789';
const PR = 9;

const CONFIG = `version: 1
actions:
  - { name: Check balance, root_code: "*144#", transport_type: ussd, operators: [2172], steps: [{ press: 1 }, pin],
      parsers: [ { category: balance, status: succeeded, regex: 'Your balance is (?<balance>[\\d,.]+).*' } ] }
`;
const rec = (last: string, category: string | null) => JSON.stringify({ data: { attributes: {
  action_name: 'Check balance', status: category ? 'succeeded' : 'pending', category, session_messages: ['Menu\n1. Balance', 'Enter PIN:', last],
} } });

let api: TestServer;
let github: GithubStandIn;
let dir: string;
beforeEach(async () => {
  api = await startTestServer();
  github = await startGithubStandIn(REPO, TOKEN);
  dir = mkdtempSync(join(tmpdir(), 'menuctl-action-replay-'));
  mkdirSync(join(dir, 'ws/records'), { recursive: true });
  writeFileSync(join(dir, 'ws/menus.yaml'), CONFIG);
});
afterEach(async () => {
  await api.close();
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(records: string): Promise<{ code: number; stdout: string; summary: string }> {
  writeFileSync(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: PR, head: { sha: 'abc1234def', repo: { full_name: REPO } } }, repository: { full_name: REPO } }));
  for (const f of ['out', 'summary']) writeFileSync(join(dir, f), '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', NO_COLOR: '1', GITHUB_ACTIONS: 'true', GITHUB_API_URL: github.url, GITHUB_REPOSITORY: REPO,
    GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: join(dir, 'event.json'), GITHUB_OUTPUT: join(dir, 'out'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'), GITHUB_WORKSPACE: join(dir, 'ws'), RUNNER_TEMP: dir,
    MENUCTL_API_URL: api.url, MENUCTL_TOKEN: api.token,
    INPUT_COMMAND: 'plan', INPUT_PATHS: 'menus.yaml', INPUT_RECORDS: records, 'INPUT_GITHUB-TOKEN': TOKEN, INPUT_COMMENT: 'true',
  };
  return new Promise((done) => execFile(process.execPath, [BUNDLE], { env, cwd: join(dir, 'ws') }, (err, stdout) =>
    done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, summary: readFileSync(join(dir, 'summary'), 'utf8') })));
}

const comment = () => (github.comments.get(PR) ?? []).find((c) => c.body.startsWith(PLAN_MARKER))?.body ?? '';

describe('action input `records`', () => {
  it('adds the behaviour section under the plan in the comment and the summary', async () => {
    writeFileSync(join(dir, 'ws/records/a.jsonl'), `${rec('Your balance is 1,200.00', 'balance')}\n${rec('Sorry, service down. Try later', null)}\n`);
    const r = await run('records');
    expect(r.code, r.stdout).toBe(0);
    const body = comment();
    expect(body.indexOf('## menuctl plan')).toBeLessThan(body.indexOf('### Behaviour on recorded traffic'));
    expect(body).toContain('2 transactions: 2 same, 0 changed');
    expect(body).toContain('Sorry, service down. Try later');
    expect(r.summary).toContain('### Behaviour on recorded traffic');
  });

  it('a broken record fails the step, and the section says why', async () => {
    writeFileSync(join(dir, 'ws/records/a.jsonl'), `${rec('Your balance is 1,200.00', 'balance').slice(0, 40)}\n`);
    const r = await run('records');
    expect(r.code).toBe(1);
    expect(comment()).toMatch(/menuctl replay failed[\s\S]*records\/a\.jsonl:1:/);
  });
});
