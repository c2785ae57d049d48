// The GitHub Action, run as a runner runs it (node action/bundle/main.mjs, inputs as INPUT_*,
// GITHUB_* variables, event payload, output and summary files) against a local stand-in for the
// GitHub API and the real reference server for the menuctl API.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_MARKER } from '../../src/report/plan-markdown.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startGithubStandIn, type GithubStandIn } from './github-stand-in.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE = join(ROOT, 'action/bundle/main.mjs');
const REPO = 'acme/menus';
const GITHUB_TOKEN = 'ghs_standInToken0123456789';
const PR = 7;

const config = (regex: string) => `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 1
      - pin
    parsers:
      - category: balance
        status: succeeded
        regex: '${regex}'
        user_message: Balance is {balance}
    tests:
      - message: Your balance is 1,200.00 KES
        expect: { category: balance, status: succeeded, variables: { balance: "1,200.00" } }
`;
const GOOD = config('Your balance is (?<balance>[\\d,.]+).*');

interface StepResult { code: number; stdout: string; stderr: string; outputs: Record<string, string>; outputText: string; summary: string }

let api: TestServer;
let github: GithubStandIn;
let dir: string;
let workspace: string;

beforeEach(async () => {
  api = await startTestServer();
  github = await startGithubStandIn(REPO, GITHUB_TOKEN);
  dir = mkdtempSync(join(tmpdir(), 'menuctl-action-'));
  workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, 'config'), { recursive: true });
  writeFileSync(join(workspace, 'config/menus.yaml'), GOOD);
});
afterEach(async () => {
  await api.close();
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

function event(o: { fork?: boolean } = {}): string {
  const file = join(dir, 'event.json');
  writeFileSync(file, JSON.stringify({
    pull_request: { number: PR, head: { sha: 'abc1234def5678', repo: { full_name: o.fork ? 'someone/menus' : REPO } } },
    repository: { full_name: REPO },
  }));
  return file;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const re = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) outputs[m[1]!] = m[3]!;
  return outputs;
}

interface StepOptions { eventName?: string; fork?: boolean; credentials?: boolean; env?: Record<string, string> }

function stepEnv(inputs: Record<string, string>, o: StepOptions = {}) {
  const output = join(dir, `output-${Math.random()}`);
  const summary = join(dir, `summary-${Math.random()}`);
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: REPO,
    GITHUB_RUN_ID: '4242',
    GITHUB_SHA: 'fedcba9876543210',
    GITHUB_EVENT_NAME: o.eventName ?? 'pull_request',
    GITHUB_EVENT_PATH: event({ fork: o.fork }),
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: dir,
    'INPUT_GITHUB-TOKEN': GITHUB_TOKEN,
    INPUT_COMMENT: 'true',
    ...(o.credentials === false ? {} : { MENUCTL_API_URL: api.url, MENUCTL_TOKEN: api.token }),
    ...o.env,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return { env, output, summary };
}

async function step(inputs: Record<string, string>, o: StepOptions = {}): Promise<StepResult> {
  const { env, output, summary } = stepEnv(inputs, o);
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(process.execPath, [BUNDLE], { env, cwd: workspace }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
  const outputText = readFileSync(output, 'utf8');
  return { ...r, outputs: parseOutputs(outputText), outputText, summary: readFileSync(summary, 'utf8') };
}

const planComments = () => (github.comments.get(PR) ?? []).filter((c) => c.body.startsWith(PLAN_MARKER));
const noSecrets = (r: StepResult) => {
  for (const text of [r.stdout, r.stderr, r.summary, ...[...github.comments.values()].flat().map((c) => c.body)]) {
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text).not.toContain(api.token);
  }
};

describe('the committed bundle', () => {
  it('is what scripts/build-action.mjs builds from src/ now', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(process.execPath, ['scripts/build-action.mjs', '--check'], { cwd: ROOT }, (err, _out, stderr) => done({ code: err ? 1 : 0, stderr })));
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('command: plan on a pull request', () => {
  it('posts one plan comment, sets the outputs, saves the plan and writes the summary', async () => {
    // 101 comments by people first: the plan comment must be found past the first page.
    github.comments.set(PR, Array.from({ length: 101 }, (_, i) => ({ id: i + 1, body: `looks good ${i}`, user: { login: 'reviewer' } })));
    const r = await step({ command: 'plan', paths: 'config' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ 'has-changes': 'true', create: '2', update: '0', archive: '0', restore: '0', skipped: 'false' });
    const saved = JSON.parse(readFileSync(r.outputs['plan-file']!, 'utf8')) as { summary: { create: number } };
    expect(saved.summary.create).toBe(2);
    expect(r.summary).toContain('## menuctl plan');
    const mine = planComments();
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain('action["Check balance"]');
    expect(mine[0]!.body).toContain('at commit `abc1234`');
    expect(mine[0]!.body).toContain('https://github.example/acme/menus/actions/runs/4242');
    noSecrets(r);
  });

  it('updates that comment in place on the next push, and marks it outdated when planning fails', async () => {
    await step({ command: 'plan', paths: 'config' });
    const id = planComments()[0]!.id;
    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('press: 1', 'press: 2'));
    const second = await step({ command: 'plan', paths: 'config' });
    expect(second.code).toBe(0);
    expect(planComments().map((c) => c.id)).toEqual([id]);
    expect(github.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(github.requests.filter((q) => q.method === 'PATCH')).toHaveLength(1);
    const planned = planComments()[0]!.body;

    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('version: 1', 'version: 1\norganization_id: 999'));
    const failed = await step({ command: 'plan', paths: 'config' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^::error title=menuctl plan::.*organization/m);
    expect(failed.summary).toContain('menuctl plan failed');
    expect(failed.outputs['has-changes']).toBeUndefined();
    const outdated = planComments();
    expect(outdated.map((c) => c.id)).toEqual([id]);
    expect(outdated[0]!.body).toContain('This plan is outdated');
    expect(outdated[0]!.body).toContain(planned.split('\n').slice(1).join('\n'));

    // Failing again keeps one warning, not two.
    await step({ command: 'plan', paths: 'config' });
    expect(planComments()[0]!.body.match(/This plan is outdated/g)).toHaveLength(1);
    noSecrets(failed);
  });

  it("leaves a person's comment that quotes the marker alone: updates its own, or posts one", async () => {
    const quoted = `${PLAN_MARKER}\nI pasted the old plan here to discuss it`;
    github.comments.set(PR, [{ id: 1, body: quoted, user: { login: 'reviewer', type: 'User' } }]);
    const first = await step({ command: 'plan', paths: 'config' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const ours = planComments().filter((c) => c.user.type === 'Bot');
    expect(ours).toHaveLength(1);
    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('press: 1', 'press: 2'));
    expect((await step({ command: 'plan', paths: 'config' })).code).toBe(0);
    // The bot's comment was updated in place (found before the person's), the person's never changed.
    expect(planComments().filter((c) => c.user.type === 'Bot').map((c) => c.id)).toEqual([ours[0]!.id]);
    expect(github.comments.get(PR)!.find((c) => c.id === 1)!.body).toBe(quoted);
  });

  it('with a read-only token (403): warns, and the plan step still passes', async () => {
    github.failWritesWith = 403;
    const r = await step({ command: 'plan', paths: 'config' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^::warning title=menuctl plan comment::.*403.*pull-requests: write/m);
    expect(r.outputs['has-changes']).toBe('true');
  });

  it('with the GitHub API unreachable: the step fails, naming it', async () => {
    await github.close();
    const r = await step({ command: 'plan', paths: 'config' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^::error title=menuctl plan comment::no answer from the GitHub API at ${github.url} \\(ECONNREFUSED\\)`, 'm'));
    github = await startGithubStandIn(REPO, GITHUB_TOKEN);
  });

  it('with comment: false it never calls GitHub', async () => {
    const r = await step({ command: 'plan', paths: 'config', comment: 'false' });
    expect(r.code).toBe(0);
    expect(github.requests).toEqual([]);
  });
});

describe('environments: one plan comment per environment', () => {
  it('plans staging and production on the same pull request, each comment naming its environment', async () => {
    const [staging, production] = await Promise.all([api.mintToken(81), api.mintToken(82)]);
    const environments = `environments:\n  staging: { organization_id: 81 }\n  production: { organization_id: 82 }\n`;
    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('version: 1\n', `version: 1\n${environments}`));
    const env = { MENUCTL_TOKEN_STAGING: staging, MENUCTL_TOKEN_PRODUCTION: production };
    for (const environment of ['staging', 'production']) {
      const r = await step({ command: 'plan', paths: 'config', environment }, { env });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      noSecrets(r);
      for (const text of [r.stdout, r.stderr, ...planComments().map((c) => c.body)]) expect(text).not.toContain(staging);
    }
    const bodies = planComments().map((c) => c.body);
    expect(bodies).toHaveLength(2);
    expect(bodies.find((b) => b.includes('## menuctl plan: environment <code>staging</code>'))).toContain('in organization 81');
    expect(bodies.find((b) => b.includes('## menuctl plan: environment <code>production</code>'))).toBeDefined();
  });

  it('validate and test with an environment input check every environment (they take no --env)', async () => {
    const environments = `environments:\n  staging: { organization_id: 81 }\n  production: { organization_id: 82 }\n`;
    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('version: 1\n', `version: 1\n${environments}`));
    for (const command of ['validate', 'test']) {
      const r = await step({ command, paths: 'config', environment: 'staging' }, { credentials: false });
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
  });
});

describe('a pull request from a fork', () => {
  it('plan without credentials: skips cleanly, saying why, and calls nobody', async () => {
    api.resetStats();
    const r = await step({ command: 'plan', paths: 'config' }, { fork: true, credentials: false });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^::notice title=menuctl::menuctl plan skipped: this pull request comes from a fork/m);
    expect(r.outputs.skipped).toBe('true');
    expect(r.summary).toContain('no secrets');
    expect(github.requests).toEqual([]);
    expect(api.stats().requests).toBe(0);
  });

  it('a secret that holds only a newline is no credential: still skipped cleanly', async () => {
    const r = await step({ command: 'plan', paths: 'config' }, { fork: true, credentials: false, env: { MENUCTL_TOKEN: '\n', MENUCTL_API_URL: api.url } });
    expect(r.code).toBe(0);
    expect(r.outputs.skipped).toBe('true');
  });

  it('validate still runs: it needs no secrets', async () => {
    const r = await step({ command: 'validate', paths: 'config' }, { fork: true, credentials: false });
    expect(r.code).toBe(0);
    expect(r.outputs.skipped).toBe('false');
    expect(r.summary).toContain('menuctl validate: passed');
  });
});

describe('command: validate and test', () => {
  it('annotates the file and line of an invalid config, and fails', async () => {
    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('transport_type: ussd', 'transport_type: carrier-pigeon'));
    const r = await step({ command: 'validate', paths: 'config' }, { eventName: 'push' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=config\/menus\.yaml,line=5,col=\d+,title=menuctl [\w.-]+::/m);
    expect(r.summary).toContain('menuctl validate: failed');
  });

  it('test runs the fixtures and fails on a wrong one', async () => {
    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('variables: { balance: "1,200.00" }', 'variables: { balance: "9" }'));
    const r = await step({ command: 'test', paths: 'config' }, { eventName: 'push' });
    expect(r.code).toBe(1);
    expect(r.summary).toContain('menuctl test: failed');
    expect(r.summary).toMatch(/0 passed, 1 failed/);
  });

  it('an unknown command is an annotated error', async () => {
    const r = await step({ command: 'destroy' }, { eventName: 'push' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error title=menuctl action::input "command" must be one of validate, test, plan, apply, drift, secrets pull');
  });
});

describe('command: apply, then drift', () => {
  it('applies exactly the saved plan, converges, and drift reports when the live API and the config differ', async () => {
    const planned = await step({ command: 'plan', paths: 'config', comment: 'false' }, { eventName: 'push' });
    const applied = await step({ command: 'apply', paths: 'config', 'plan-file': planned.outputs['plan-file']! }, { eventName: 'push' });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.summary).toContain('### menuctl apply');
    const again = await step({ command: 'plan', paths: 'config', comment: 'false' }, { eventName: 'push' });
    expect(again.outputs['has-changes']).toBe('false');

    const inSync = await step({ command: 'drift', paths: 'config' }, { eventName: 'schedule' });
    expect(inSync.code).toBe(0);
    expect(inSync.outputs['has-changes']).toBe('false');

    writeFileSync(join(workspace, 'config/menus.yaml'), GOOD.replace('press: 1', 'press: 3'));
    const drifted = await step({ command: 'drift', paths: 'config' }, { eventName: 'schedule' });
    expect(drifted.code).toBe(1);
    expect(drifted.outputs['has-changes']).toBe('true');
    expect(drifted.stdout).toMatch(/^::error title=menuctl drift::the live API differs/m);
    const reported = await step({ command: 'drift', paths: 'config', 'fail-on-drift': 'false' }, { eventName: 'schedule' });
    expect(reported.code).toBe(0);
    expect(reported.stdout).toMatch(/^::warning title=menuctl drift::/m);
    noSecrets(drifted);
  });

  it('a cancelled workflow (SIGTERM) stops apply cleanly: in-flight writes finish, exit 130', async () => {
    await api.close();
    api = await startTestServer({ latencyMs: 1500 });
    const env = { ...stepEnv({ command: 'apply', paths: 'config' }, { eventName: 'push' }).env };
    const child = spawn(process.execPath, [BUNDLE], { env, cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    setTimeout(() => child.kill('SIGTERM'), 2200);
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect(code).toBe(130);
    expect(stdout).toMatch(/^::error title=menuctl apply::/m);
  }, 20_000);

  it('refuses a saved plan the live API moved away from', async () => {
    const planned = await step({ command: 'plan', paths: 'config', comment: 'false' }, { eventName: 'push' });
    const file = planned.outputs['plan-file']!;
    expect(existsSync(file)).toBe(true);
    await step({ command: 'apply', paths: 'config' }, { eventName: 'push' });
    const stale = await step({ command: 'apply', paths: 'config', 'plan-file': file }, { eventName: 'push' });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/^::error title=menuctl apply::/m);
  });
});

describe('command: secrets pull', () => {
  const WITH_APP = `${GOOD}apps:\n  - name: Field agent\n    package_name: com.acme.agent\n    webhook_url: https://hooks.acme.example/agent\n`;
  const ADDRESS = 'app["com.acme.agent"]';

  /** Apply the config with its app; the values the API gave for it, as apply's own --secrets-file kept them. */
  async function applied(): Promise<{ token: string; webhookSecret: string | null }> {
    writeFileSync(join(workspace, 'config/menus.yaml'), WITH_APP);
    const kept = join(dir, 'apply-secrets.json');
    const r = await step({ command: 'apply', paths: 'config', 'extra-flags': `--secrets-file ${kept}` }, { eventName: 'push' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const entry = (JSON.parse(readFileSync(kept, 'utf8')) as Record<string, { token: string; webhook_secret: string | null }>)[ADDRESS]!;
    expect(entry.token.length).toBeGreaterThan(8);
    return { token: entry.token, webhookSecret: entry.webhook_secret };
  }

  /** Every place the step wrote, but for the runner's `::add-mask::` lines, holds no value. */
  function nowhereButMasks(r: StepResult, values: string[]): void {
    const logged = r.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n');
    for (const text of [logged, r.stderr, r.summary, r.outputText]) {
      for (const v of values) expect(text).not.toContain(v);
    }
  }

  it('after apply: writes every managed app\'s secrets to a 0600 file in RUNNER_TEMP, names it in an output, and masks each value', async () => {
    const { token, webhookSecret } = await applied();
    const values = [token, ...(webhookSecret ? [webhookSecret] : [])];
    const r = await step({ command: 'secrets pull', paths: 'config' }, { eventName: 'push' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const file = r.outputs['secrets-file']!;
    expect(file).toBe(join(dir, 'menuctl-app-secrets.json'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { token: string; webhook_secret: string | null }>;
    expect(saved[ADDRESS]!.token).toBe(token);
    // Registered with the runner before anything else could print them, and nowhere else.
    for (const v of values) expect(r.stdout).toContain(`::add-mask::${v}\n`);
    nowhereButMasks(r, values);
    expect(r.summary).toContain('### menuctl secrets pull');
    expect(r.summary).toContain(ADDRESS);
    noSecrets(r);
  });

  it('takes `secrets` for `secrets pull`, a secrets-file of its own and --format env in extra-flags', async () => {
    const { token } = await applied();
    const r = await step({ command: 'secrets', paths: 'config', 'secrets-file': 'app-secrets.env', 'extra-flags': '--format env' }, { eventName: 'push' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const file = join(workspace, 'app-secrets.env');
    expect(r.outputs['secrets-file']).toBe(file);
    expect(readFileSync(file, 'utf8')).toContain(`MENUCTL_APP_COM_ACME_AGENT_TOKEN=${token}`);
    expect(r.stdout).toContain(`::add-mask::${token}\n`);
    nowhereButMasks(r, [token]);
  });

  it('a record with no app: passes with a notice, and writes no file', async () => {
    await step({ command: 'apply', paths: 'config' }, { eventName: 'push' });
    const r = await step({ command: 'secrets pull', paths: 'config' }, { eventName: 'push' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^::notice title=menuctl::menuctl secrets pull: the record holds no app/m);
    expect(r.outputs['secrets-file']).toBe('');
    expect(existsSync(join(dir, 'menuctl-app-secrets.json'))).toBe(false);
  });

  it('without credentials it fails with one annotation, and on a fork\'s pull request it skips', async () => {
    await applied();
    const failed = await step({ command: 'secrets pull', paths: 'config' }, { eventName: 'push', credentials: false, env: { MENUCTL_API_URL: api.url } });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^::error title=menuctl secrets pull::/m);
    const skipped = await step({ command: 'secrets pull', paths: 'config' }, { fork: true, credentials: false });
    expect(skipped.code).toBe(0);
    expect(skipped.outputs.skipped).toBe('true');
  });
});
