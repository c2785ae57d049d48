// The last line of defence (issue 28): values of known-secret process variables are written as
// `***` in everything menuctl prints and in the report files it writes; a plan file holding one
// is refused (masking it would corrupt what apply checks).

import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { isSecretName, planSecretProblems, refusingSecretsInPlan, SecretMask } from '../../src/cli/secret-mask.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('which variables are secret', () => {
  it.each([
    ['GITHUB_TOKEN', true], ['GH_TOKEN', true], ['ACTIONS_ID_TOKEN_REQUEST_TOKEN', true], ['ACTIONS_RUNTIME_TOKEN', true],
    ['NPM_TOKEN', true], ['AWS_SECRET_ACCESS_KEY', true], ['AWS_SESSION_TOKEN', true], ['PGPASSWORD', true],
    ['MENUCTL_TOKEN', true], ['MENUCTL_TOKEN_PROD', true], ['MENUCTL_PASSWORD_STAGING', true], ['MENUCTL_JWT_SECRET', true],
    ['STRIPE_API_KEY', true], ['DB_PASSWORD', true], ['INPUT_GITHUB-TOKEN', true],
    ['MENUCTL_VAR_HOOKS', false], ['MENUCTL_API_URL', false], ['PATH', false], ['HOME', false], ['TOKENIZER', false], ['KEYBOARD', false],
  ])('%s: %s', (name, secret) => expect(isSecretName(name)).toBe(secret));
});

describe('SecretMask', () => {
  it('masks every occurrence, longest value first, and values as JSON-escaped', () => {
    const m = SecretMask.fromEnv({ A_TOKEN: 'abcdefgh', B_TOKEN: 'abcdefgh-longer', C_SECRET: 'quo"te\\slash', PATH: '/usr/bin:/bin' });
    expect(m.mask('x abcdefgh-longer y abcdefgh z /usr/bin')).toBe('x *** y *** z /usr/bin');
    expect(m.mask(JSON.stringify({ v: 'quo"te\\slash' }))).toBe('{"v":"***"}');
    expect(m.namesIn('..abcdefgh..')).toEqual(['A_TOKEN']);
  });

  it('ignores values under 8 characters, so `1` or `true` does not mask everything', () => {
    const m = SecretMask.fromEnv({ DEBUG_TOKEN: '1', FLAG_SECRET: 'true', SHORT_KEY: '1234567' });
    expect(m.empty).toBe(true);
    expect(m.mask('1 true 1234567')).toBe('1 true 1234567');
  });

  it('locates a secret in a plan by JSON path and address, naming the variable, never the value', () => {
    const value = 'ghs_0123456789abcdef';
    const plan = JSON.stringify({ changes: [{ address: 'action["A"]', fields: [{ path: 'regex', before: `x${value}`, after: 'y' }] }] });
    const problems = planSecretProblems(plan, SecretMask.fromEnv({ GITHUB_TOKEN: value }));
    expect(problems).toEqual(['changes[0].fields[0].before (action["A"]) holds the value of GITHUB_TOKEN']);
  });
});

describe('against the reference server: a secret in the live state', () => {
  const SECRET = `ghs_${randomBytes(16).toString('hex')}`;
  const CONFIG = `version: 1\nactions:\n  - name: Check balance\n    root_code: "*144#"\n    transport_type: ussd\n    operators: [2172]\n` +
    "    parsers:\n      - category: balance\n        status: succeeded\n        regex: 'Your balance is .*'\n";
  let server: TestServer;
  let client: ApiClient;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startTestServer();
    client = createClient({ baseUrl: server.url, token: server.token });
    env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token, GITHUB_TOKEN: SECRET };
    dir = mkdtempSync(join(tmpdir(), 'menuctl-mask-'));
    writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
    // Someone put the CI's token into the live parser (and into an action menuctl does not manage).
    const action = await client.createAction({ name: 'Check balance', root_code: '*144#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
    await client.createParser(action.id, { category: 'balance', status: 'succeeded', target_type: 'ussd', sender: null, regex: `Your balance is ${SECRET}.*`, user_message: '' });
    await client.createAction({ name: `leak ${SECRET}`, root_code: '*100#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['markdown', 'text', 'json'])('plan --format %s prints it as ***', async (format) => {
    const r = await runCli(['plan', '--format', format, '--detailed-exitcode'], { cwd: dir, env });
    expect(r.stderr).not.toContain(SECRET);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).toContain('Your balance is ***.*');
  });

  it('plan --out refuses to save the plan, saying where (never what), and writes no file', async () => {
    const out = join(dir, 'plan.json');
    const r = await runCli(['plan', '--out', out], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stderr).toMatch(/not written, because the plan holds a secret's value: changes\[\d+\]\.fields\[\d+\]\.before \(action\["Check balance"\]\.parser\["balance"\]\) holds the value of GITHUB_TOKEN/);
    expect(existsSync(out)).toBe(false);
  });

  it('plan --out, written in pieces, is refused at its end: an older plan file stays as it was, and no temp file is left', async () => {
    const out = join(dir, 'plan.json');
    writeFileSync(out, 'older plan\n');
    const r = await runCli(['plan', '--out', out, '--format', 'json'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not written, because the plan holds a secret');
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe('older plan\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('.menuctl-'))).toEqual([]);
  });

  it('drift --report-file and the job summary get *** too', async () => {
    const report = join(dir, 'drift.md');
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await runCli(['drift', '--format', 'markdown', '--report-file', report], { cwd: dir, env: { ...env, GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    for (const file of [report, summary]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(SECRET);
      expect(text, file).toContain('***');
    }
  });
});

describe('plan --out in pieces', () => {
  it('never passes on the piece that holds a secret: the writer gets only what came before, then the refusal', () => {
    const secret = 'ghp_0123456789abcdefSECRET';
    const mask = SecretMask.fromEnv({ GITHUB_TOKEN: secret });
    const pieces = ['{"changes":[\n', `{"address":"action[\\"x\\"]","desired":{"name":"${secret}"}}\n`, ']}\n'];
    const written: string[] = [];
    let refused: unknown;
    try {
      for (const piece of refusingSecretsInPlan('--out', 'plan.json', () => pieces, mask)) written.push(piece);
    } catch (err) {
      refused = err;
    }
    expect(written).toEqual([pieces[0]]);
    expect(written.join('')).not.toContain(secret);
    expect((refused as Error).message).toContain('holds the value of GITHUB_TOKEN');
    expect((refused as Error).message).not.toContain(secret);
  });
});
