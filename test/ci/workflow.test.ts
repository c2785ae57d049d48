// The CI workflow users copy (docs/examples/github-actions.yml, the same as docs/ci.md's), replayed
// job by job as GitHub would run it: every job in a fresh `git clone` of a real repository, its
// `uses: menuctl/menuctl@v0` steps run by the committed action bundle with the job's inputs and
// environment (the workflow's own `${{ }}` values filled in), against `serve --spec-only` over
// loopback, the state in a real backend: the repository's menuctl-state branch (git), or a real
// PostgreSQL server. Only GitHub's comment API is a stand-in. Issue 23 item 5.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.mjs';
import { startGithubStandIn, type GithubStandIn } from '../action/github-stand-in.js';
import { runCli } from '../helpers/run-cli.js';
import { PLAN_MARKER } from '../../src/report/plan-markdown.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE = join(ROOT, 'action/bundle/main.mjs');
const WORKFLOW_FILE = join(ROOT, 'docs/examples/github-actions.yml');
const REPO = 'acme/menus';
const GITHUB_TOKEN = 'ghs_workflowStandIn0123456789';
const EMAIL = 'ci@acme.example';
const PASSWORD = 'correct horse battery staple';
const PR = 12;

interface Step { uses?: string; run?: string; with?: Record<string, string>; env?: Record<string, string> }
interface Job { env?: Record<string, string>; steps: Step[]; permissions?: Record<string, string> }
interface Workflow { env: Record<string, string>; jobs: Record<string, Job> }

const workflow = parse(readFileSync(WORKFLOW_FILE, 'utf8')) as Workflow;

const action = (name: string, extra = '') => [
  `  - name: ${name}`,
  `    root_code: "*1${name.length}#"`,
  '    transport_type: ussd',
  '    operators: [2172]',
  '    steps: [ { press: 1 }, pin ]',
  extra,
].filter(Boolean).join('\n');

const CONFIG = (actions: string[]) => `version: 1
actions:
${actions.join('\n')}
apps:
  - name: Agent
    package_name: com.acme.agent
    webhook_url: \${AGENT_WEBHOOK_URL}
`;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, {
  cwd, encoding: 'utf8',
  env: { ...process.env, GIT_AUTHOR_NAME: 'dev', GIT_AUTHOR_EMAIL: 'dev@acme.example', GIT_COMMITTER_NAME: 'dev', GIT_COMMITTER_EMAIL: 'dev@acme.example' },
});

interface World {
  api: TestServer;
  github: GithubStandIn;
  dir: string;
  origin: string;
  state: string;
  org: number;
}

/** `${{ expr }}` as GitHub fills it for this world; an expression the replay does not know fails the test. */
function fill(value: string, w: World, temp: string): string {
  const known: Record<string, string> = {
    'vars.MENUCTL_API_URL': w.api.url,
    'vars.MENUCTL_ORGANIZATION_ID': String(w.org),
    'vars.AGENT_WEBHOOK_URL': 'https://hooks.acme.example/agent',
    'github.token': GITHUB_TOKEN,
    'github.repository': REPO,
    'secrets.MENUCTL_EMAIL': EMAIL,
    'secrets.MENUCTL_PASSWORD': PASSWORD,
    'runner.temp': temp,
  };
  return String(value).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, e: string) => {
    if (!(e in known)) throw new Error(`the replay does not know \${{ ${e} }}`);
    return known[e]!;
  });
}

interface StepRun { code: number; stdout: string; stderr: string; outputs: Record<string, string>; summary: string }

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]!] = m[3]!;
  return outputs;
}

/** Runs one job of the workflow in a fresh clone, as a runner would; resolves to each menuctl step's result. */
async function runJob(w: World, name: string, o: { event: 'pull_request' | 'push' }): Promise<StepRun[]> {
  const job = workflow.jobs[name]!;
  const workspace = mkdtempSync(join(w.dir, `${name}-`));
  // The runner's temporary directory: one per job run (two applies at once must not share it).
  const temp = mkdtempSync(join(w.dir, `temp-${name}-`));
  const runs: StepRun[] = [];
  for (const step of job.steps) {
    if (step.uses?.startsWith('actions/checkout@')) {
      git(w.dir, 'clone', '-q', w.origin, workspace);
      continue;
    }
    if (!step.uses?.startsWith('menuctl/menuctl@')) throw new Error(`the replay cannot run step ${JSON.stringify(step)}`);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: join(w.dir, 'home') };
    for (const scope of [workflow.env, job.env ?? {}, step.env ?? {}]) {
      for (const [k, v] of Object.entries(scope)) env[k] = fill(v, w, temp);
    }
    // The one value the replay must change: github.com is not reachable here. Its shape is checked below.
    expect(env.MENUCTL_STATE).toBe(`git+https://x-access-token:${GITHUB_TOKEN}@github.com/${REPO}.git#menuctl-state`);
    env.MENUCTL_STATE = w.state;
    const output = join(temp, `output-${runs.length}`);
    const summary = join(temp, `summary-${runs.length}`);
    const event = join(temp, 'event.json');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    writeFileSync(event, JSON.stringify(o.event === 'pull_request'
      ? { pull_request: { number: PR, head: { sha: 'abc1234def5678', repo: { full_name: REPO } } }, repository: { full_name: REPO } }
      : { repository: { full_name: REPO } }));
    Object.assign(env, {
      GITHUB_ACTIONS: 'true', GITHUB_API_URL: w.github.url, GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: REPO,
      GITHUB_RUN_ID: String(4000 + runs.length), GITHUB_SHA: 'fedcba9876543210', GITHUB_EVENT_NAME: o.event, GITHUB_EVENT_PATH: event,
      GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: temp, 'INPUT_GITHUB-TOKEN': GITHUB_TOKEN,
    });
    for (const [k, v] of Object.entries(step.with ?? {})) env[`INPUT_${k.toUpperCase()}`] = fill(v, w, temp);
    const r = await new Promise<Omit<StepRun, 'outputs' | 'summary'>>((done) => {
      execFile(process.execPath, [BUNDLE], { env, cwd: workspace }, (err, stdout, stderr) => {
        done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      });
    });
    runs.push({ ...r, outputs: parseOutputs(readFileSync(output, 'utf8')), summary: readFileSync(summary, 'utf8') });
  }
  return runs;
}

/** A merge to main: the config of `actions` committed and pushed to the origin. */
function merge(w: World, actions: string[], message: string): void {
  const work = mkdtempSync(join(w.dir, 'dev-'));
  git(w.dir, 'clone', '-q', w.origin, work);
  writeFileSync(join(work, 'config/menus.yaml'), CONFIG(actions));
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', message);
  git(work, 'push', '-q', 'origin', 'HEAD:main');
}

const posts = (w: World, route: string) => w.api.stats().byRoute[`POST ${route}`] ?? 0;

describe('the documented workflow is the one in docs/ci.md', () => {
  it('docs/ci.md shows docs/examples/github-actions.yml, less its first comment lines', () => {
    const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
    const at = doc.indexOf('### A complete workflow');
    const block = /```yaml\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
    const file = readFileSync(WORKFLOW_FILE, 'utf8');
    expect(block).toBe(file.slice(file.indexOf('name: menus')));
  });

  it('every job that talks to the API logs in with email and password: none is given a JWT, which would expire', () => {
    const online = Object.entries(workflow.jobs).filter(([, job]) => job.steps.some((s) => s.uses?.startsWith('menuctl/menuctl@') && !['validate', 'test'].includes(String(s.with?.command))));
    expect(online.map(([name]) => name).sort()).toEqual(['apply', 'drift', 'plan']);
    for (const [name, job] of online) {
      for (const step of job.steps.filter((s) => s.uses?.startsWith('menuctl/menuctl@'))) {
        const env = { ...workflow.env, ...job.env, ...step.env };
        expect(env, name).toMatchObject({ MENUCTL_EMAIL: '${{ secrets.MENUCTL_EMAIL }}', MENUCTL_PASSWORD: '${{ secrets.MENUCTL_PASSWORD }}' });
        expect(Object.keys(env).filter((k) => k.startsWith('MENUCTL_TOKEN')), name).toEqual([]);
      }
    }
  });

  it('the apply job pulls the new apps\' secrets through the action, after apply', () => {
    const commands = workflow.jobs.apply!.steps.filter((s) => s.uses?.startsWith('menuctl/menuctl@')).map((s) => s.with?.command);
    expect(commands).toEqual(['apply', 'secrets pull']);
  });
});

const BACKENDS = ['git', 'postgres'] as const;

describe.each(BACKENDS)('the workflow, replayed in fresh clones with the state in %s', (backend) => {
  let pg: TestPostgres | undefined;
  const worlds: World[] = [];
  beforeAll(async () => {
    if (backend === 'postgres') pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    for (const w of worlds) {
      await w.api.close();
      await w.github.close();
      rmSync(w.dir, { recursive: true, force: true });
    }
    await pg?.stop();
  });

  async function world(): Promise<World> {
    const org = 40 + worlds.length;
    const api = await startTestServer({ specOnly: true, latencyMs: 15, users: [{ email: EMAIL, password: PASSWORD, organization_id: org }] });
    const github = await startGithubStandIn(REPO, GITHUB_TOKEN);
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-workflow-'));
    mkdirSync(join(dir, 'home'));
    const origin = join(dir, 'origin.git');
    git(dir, 'init', '-q', '--bare', '-b', 'main', origin);
    const seed = join(dir, 'seed');
    git(dir, 'init', '-q', '-b', 'main', seed);
    git(seed, 'remote', 'add', 'origin', origin);
    mkdirSync(join(seed, 'config'));
    writeFileSync(join(seed, 'config/menus.yaml'), CONFIG([action('Balance')]));
    git(seed, 'add', '-A');
    git(seed, 'commit', '-q', '-m', 'menus');
    git(seed, 'push', '-q', 'origin', 'HEAD:main');
    const state = backend === 'git' ? `git+file://${origin}#menuctl-state` : `${pg!.url}?table=menuctl_${worlds.length}`;
    const w = { api, github, dir, origin, state, org };
    worlds.push(w);
    return w;
  }

  it('plan on the pull request, apply on each merge (two at once), a clean plan after: each app created once', async () => {
    const w = await world();
    const prToken = await w.api.mintToken(w.org);
    // Pull request: the check job, then the plan job posts the plan.
    for (const r of await runJob(w, 'check', { event: 'pull_request' })) expect(r.code, r.stderr).toBe(0);
    // It logs in with the workflow's email and password (no JWT is given to any job).
    const [plan] = await runJob(w, 'plan', { event: 'pull_request' });
    expect(plan!.code, plan!.stderr).toBe(0);
    expect(posts(w, '/api/authenticate')).toBeGreaterThan(0);
    const comment = (w.github.comments.get(PR) ?? []).find((c) => c.body.startsWith(PLAN_MARKER))!;
    expect(comment.body).toContain('2 to create');

    // The merge: the apply job in another fresh clone.
    w.api.resetStats();
    const [first, pull] = await runJob(w, 'apply', { event: 'push' });
    expect(first!.code, first!.stderr).toBe(0);
    expect(posts(w, '/api/apps')).toBe(1);
    expect(posts(w, '/api/actions')).toBe(1);
    // Its `secrets pull` step: the new app's token in a 0600 file in the runner's temp, the path
    // as the output, the value registered as a mask and nowhere else in what the step wrote.
    expect(pull!.code, pull!.stdout + pull!.stderr).toBe(0);
    const file = pull!.outputs['secrets-file']!;
    expect(file).toMatch(new RegExp(`^${w.dir}/temp-apply-`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const appToken = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, { token: string }>)['app["com.acme.agent"]']!.token;
    expect(appToken).toMatch(/^[0-9a-f]{32}$/);
    expect(pull!.stdout).toContain(`::add-mask::${appToken}\n`);
    for (const r of [first!, pull!]) {
      const logged = r.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n');
      for (const text of [logged, r.stderr, r.summary, JSON.stringify(r.outputs)]) expect(text).not.toContain(appToken);
    }

    // The same commit's apply again (a re-run): nothing is sent, no app twice.
    const [rerun] = await runJob(w, 'apply', { event: 'push' });
    expect(rerun!.code, rerun!.stderr).toBe(0);
    expect(posts(w, '/api/apps')).toBe(1);

    // The next merge's apply in two clones at once: one holds the lock, the other waits for it.
    merge(w, [action('Balance'), action('Airtime')], 'Airtime menu');
    const [c, d] = await Promise.all([runJob(w, 'apply', { event: 'push' }), runJob(w, 'apply', { event: 'push' })]);
    for (const r of [...c!, ...d!]) expect(r.code, r.stderr).toBe(0);
    // (Whether they overlapped depends on the machine; that the second waits for a held lock is
    // the next test's, made certain there.)
    expect(posts(w, '/api/apps')).toBe(1);
    expect(posts(w, '/api/actions')).toBe(2);

    // A plan anywhere else now: clean and quiet.
    const e = mkdtempSync(join(w.dir, 'laptop-'));
    git(w.dir, 'clone', '-q', w.origin, e);
    const env = { MENUCTL_API_URL: w.api.url, MENUCTL_TOKEN: prToken, MENUCTL_STATE: w.state, MENUCTL_VAR_AGENT_WEBHOOK_URL: 'https://hooks.acme.example/agent' };
    const clean = await runCli(['plan', 'config/', '--detailed-exitcode'], { cwd: e, env });
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);

    // The app's token is not lost: secrets pull reads it by the recorded id.
    const pulled = await runCli(['secrets', 'pull', 'config/', '--out', join(w.dir, 'app-secrets.json')], { cwd: e, env });
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout + pulled.stderr).not.toMatch(/[0-9a-f]{32}/);
    expect(JSON.parse(readFileSync(join(w.dir, 'app-secrets.json'), 'utf8'))['app["com.acme.agent"]'].token).toBe(appToken);

    // Scheduled drift: green.
    const [drift] = await runJob(w, 'drift', { event: 'push' });
    expect(drift!.code, drift!.stderr).toBe(0);

    // No secret in any output, comment or the state itself.
    for (const text of [plan!.stdout, plan!.stderr, first!.stdout, first!.stderr, comment.body, clean.stdout]) {
      expect(text).not.toContain(GITHUB_TOKEN);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(prToken);
    }
    if (backend === 'git') {
      const log = git(w.dir, '--git-dir', w.origin, 'log', '--format=%s', 'menuctl-state');
      expect(log).toMatch(/lock .* for menuctl apply/);
      expect(git(w.dir, '--git-dir', w.origin, 'log', '--format=%s', 'main')).not.toMatch(/menuctl/);
    }
  }, 180_000);

  it('while one apply holds the lock: another without --lock-timeout is refused naming the holder and how to release it; one with it waits, then finds nothing to do', async () => {
    const w = await world();
    const token = await w.api.mintToken(w.org);
    const clone = mkdtempSync(join(w.dir, 'a-'));
    git(w.dir, 'clone', '-q', w.origin, clone);
    const env = { MENUCTL_API_URL: w.api.url, MENUCTL_TOKEN: token, MENUCTL_STATE: w.state, MENUCTL_VAR_AGENT_WEBHOOK_URL: 'https://hooks.acme.example/agent', GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: REPO, GITHUB_RUN_ID: '77' };
    // A long apply holds the lock: many actions, 15 ms a request.
    writeFileSync(join(clone, 'config/menus.yaml'), CONFIG(Array.from({ length: 60 }, (_, i) => action(`Menu ${i}`))));
    const holder = runCli(['apply', 'config/', '--yes'], { cwd: clone, env });
    // The second starts once the state shows the first's lock (state list names held locks).
    let seen = false;
    for (let i = 0; i < 500 && !seen; i++) {
      seen = (await runCli(['state', 'list', 'config/'], { cwd: clone, env })).stderr.includes('/actions/runs/77');
      if (!seen) await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toBe(true);
    const [refused, waited] = await Promise.all([
      runCli(['apply', 'config/', '--yes'], { cwd: clone, env: { ...env, GITHUB_RUN_ID: '78' } }),
      runCli(['apply', 'config/', '--yes', '--lock-timeout', '10m'], { cwd: clone, env: { ...env, GITHUB_RUN_ID: '79' } }),
    ]);
    expect(refused.code).toBe(1);
    expect((await holder).code).toBe(0);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toMatch(/^Waiting up to 600 s for the state lock of .*: held by .* running `menuctl apply` since .* \(https:\/\/github\.example\/acme\/menus\/actions\/runs\/77\)/m);
    expect(waited.stdout).toContain('No changes');
    expect(refused.stderr).toMatch(/is locked: held by .* running `menuctl apply` since .* \(https:\/\/github\.example\/acme\/menus\/actions\/runs\/77\), lock id \S+\. Nothing was changed\./);
    expect(refused.stderr).toContain('menuctl state unlock');
    expect(posts(w, '/api/actions')).toBe(60);
  }, 180_000);
});

describe('state push: a team moves its record from the file to PostgreSQL or git, losing nothing', () => {
  let pg: TestPostgres;
  let api: TestServer;
  beforeAll(async () => {
    pg = await startPostgres();
    api = await startTestServer({ specOnly: true });
  }, 120_000);
  afterAll(async () => {
    await api.close();
    await pg?.stop();
  });

  it.each(['postgres', 'git'] as const)('to %s: the next apply from a fresh directory creates nothing twice', async (to) => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-push-'));
    const token = await api.mintToken(to === 'git' ? 61 : 62);
    const env = { MENUCTL_API_URL: api.url, MENUCTL_TOKEN: token, MENUCTL_VAR_AGENT_WEBHOOK_URL: 'https://hooks.acme.example/agent' };
    writeFileSync(join(dir, 'menuctl.yaml'), CONFIG([action('Balance')]));
    expect((await runCli(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const target = to === 'git'
      ? (execFileSync('git', ['init', '-q', '--bare', join(dir, 'state.git')]), `git+file://${join(dir, 'state.git')}#menuctl-state`)
      : `${pg.url}?table=pushed`;
    const pushed = await runCli(['state', 'push', '--to', target], { cwd: dir, env });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).not.toContain(pg.password);
    const listFile = await runCli(['state', 'list'], { cwd: dir, env });
    const listTarget = await runCli(['state', 'list', '--state', target], { cwd: dir, env });
    expect(listTarget.stdout).toBe(listFile.stdout);

    const elsewhere = mkdtempSync(join(tmpdir(), 'menuctl-push-fresh-'));
    writeFileSync(join(elsewhere, 'menuctl.yaml'), CONFIG([action('Balance')]));
    api.resetStats();
    const again = await runCli(['apply', '--yes', '--state', target], { cwd: elsewhere, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes');
    expect(api.stats().byRoute['POST /api/apps'] ?? 0).toBe(0);
    // HTTP://HOST:PORT/ is the same API, the same scope.
    const upper = await runCli(['plan', '--detailed-exitcode', '--state', target], { cwd: elsewhere, env: { ...env, MENUCTL_API_URL: `${api.url.replace('http://', 'HTTP://')}/` } });
    expect(upper.code, upper.stderr).toBe(0);
    expect(upper.stderr).toBe('');
  }, 120_000);
});
