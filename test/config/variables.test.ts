// What `${NAME}` may read (issue 28 item 1): the selected environment's variables, then the
// process variable MENUCTL_VAR_NAME, then a written default; never the process variable NAME,
// so a config edited in a pull request cannot copy the CI's secrets into a plan or its comment.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { interpolate, VariableScope } from '../../src/config/interpolate.js';
import { loadSources } from '../../src/config/load.js';
import { runCli } from '../helpers/run-cli.js';

const SECRETS = ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'NPM_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'MENUCTL_JWT_SECRET'];
/** Distinctive values, all set at once: whichever leaks is found. */
const VALUES = Object.fromEntries(SECRETS.map((n) => [n, `s3cr3t-${n.toLowerCase()}-${randomBytes(12).toString('hex')}`]));

const app = (url: string) => `version: 1\napps:\n  - name: Agent\n    package_name: com.example.agent\n    webhook_url: "${url}"\n`;

/** name -> config text, and where its reference is. */
const SHAPES: Record<string, (name: string) => { text: string; at: string }> = {
  block: (name) => ({ text: app(`\${${name}}`), at: 'menuctl.yaml:5:19' }),
  'flow style': (name) => ({
    text: `version: 1\napps: [{name: x, package_name: com.example.x, webhook_url: "\${${name}}"}]\n`,
    at: 'menuctl.yaml:2:61',
  }),
  "an environment's variables": (name) => ({
    text: `version: 1\nenvironments:\n  prod: { organization_id: 1, variables: { H: "\${${name}}" } }\n` +
      'apps:\n  - name: Agent\n    package_name: com.example.agent\n    webhook_url: "https://x.example.com/${H}"\n',
    at: 'menuctl.yaml:3:48',
  }),
};

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function validate(text: string, env: Record<string, string>, format = 'text') {
  const dir = mkdtempSync(join(tmpdir(), 'menuctl-vars-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'menuctl.yaml'), text);
  return runCli(['validate', '--format', format], { cwd: dir, env });
}

describe('an undeclared ${SECRET} is refused by validate, located, and its value appears in no output', () => {
  const cases = SECRETS.flatMap((name) => Object.keys(SHAPES).map((shape) => [name, shape] as const));
  it.each(cases)('${%s} (%s)', async (name, shape) => {
    const { text, at } = SHAPES[shape]!(name);
    const code = name === 'MENUCTL_JWT_SECRET' ? 'env.credential' : 'env.undeclared';
    for (const format of ['text', 'json']) {
      const r = await validate(text, VALUES, format);
      expect(r.code, format).toBe(1);
      const output = r.stdout + r.stderr;
      for (const value of Object.values(VALUES)) expect(output, format).not.toContain(value);
      if (format === 'text') {
        expect(r.stderr).toContain(`${at}: error[${code}]`);
        if (code === 'env.undeclared') expect(r.stderr).toContain(`export MENUCTL_VAR_${name}=...`);
      } else {
        expect(output).toContain(`"code": "${code}"`);
      }
    }
  });
});

describe('where a name is read from', () => {
  const load = (text: string, env: Record<string, string>, environment?: string) =>
    loadSources([{ file: 'm.yaml', text }], { env, cwd: '/', ...(environment ? { environment } : {}) });

  it('MENUCTL_VAR_HOOKS answers both ${HOOKS} and ${MENUCTL_VAR_HOOKS}', () => {
    for (const ref of ['${HOOKS}', '${MENUCTL_VAR_HOOKS}']) {
      const r = load(app(`${ref}/in`), { MENUCTL_VAR_HOOKS: 'https://hooks.example.com' });
      expect(r.diagnostics, ref).toEqual([]);
      expect(r.state!.apps[0]!.webhook_url, ref).toBe('https://hooks.example.com/in');
    }
  });

  it('the unprefixed process variable is never read, even beside the prefixed one', () => {
    const r = load(app('${HOOKS}'), { HOOKS: 'https://unprefixed.example.com', MENUCTL_VAR_HOOKS: 'https://prefixed.example.com' });
    expect(r.state!.apps[0]!.webhook_url).toBe('https://prefixed.example.com');
    const unset = load(app('${HOOKS}'), { HOOKS: 'https://unprefixed.example.com' });
    expect(unset.diagnostics.map((d) => [d.code, d.loc?.line, d.loc?.col])).toEqual([['env.undeclared', 5, 19]]);
    expect(unset.diagnostics[0]!.message).toContain('export MENUCTL_VAR_HOOKS=...');
    expect(unset.diagnostics[0]!.message).not.toContain('unprefixed.example.com');
  });

  it('a name set nowhere is env.unset, naming the prefixed variable', () => {
    const r = load(app('${HOOKS}'), {});
    expect(r.diagnostics.map((d) => d.code)).toEqual(['env.unset']);
    expect(r.diagnostics[0]!.message).toContain('export MENUCTL_VAR_HOOKS=...');
  });

  it('a default applies when only the unprefixed variable is set, with a warning that it was not read', () => {
    const r = load(app('${AGENT_WEBHOOK_URL:-https://fallback.example.com}'), { AGENT_WEBHOOK_URL: 'https://exported-the-old-way.example.com' });
    expect(r.state!.apps[0]!.webhook_url).toBe('https://fallback.example.com');
    expect(r.diagnostics.map((d) => [d.severity, d.code, d.loc?.line, d.loc?.col])).toEqual([['warning', 'env.undeclared', 5, 19]]);
    expect(r.diagnostics[0]!.message).toContain('export MENUCTL_VAR_AGENT_WEBHOOK_URL=...');
    expect(r.diagnostics[0]!.message).not.toContain('exported-the-old-way');
    expect(load(app('${AGENT_WEBHOOK_URL:-https://fallback.example.com}'), {}).diagnostics).toEqual([]);
  });

  it("the environment's variables win over MENUCTL_VAR_", () => {
    const text = 'version: 1\nenvironments:\n  prod: { organization_id: 1, variables: { HOOKS: "https://config.example.com" } }\n' +
      'apps:\n  - name: Agent\n    package_name: com.example.agent\n    webhook_url: "${HOOKS}/in"\n';
    const r = load(text, { MENUCTL_VAR_HOOKS: 'https://process.example.com' }, 'prod');
    expect(r.diagnostics).toEqual([]);
    expect(r.state!.apps[0]!.webhook_url).toBe('https://config.example.com/in');
  });

  it("an environment's variable can take its value from MENUCTL_VAR_", () => {
    const text = 'version: 1\nenvironments:\n  prod: { organization_id: 1, variables: { HOOKS: "${MENUCTL_VAR_PROD_HOOKS}" } }\n' +
      'apps:\n  - name: Agent\n    package_name: com.example.agent\n    webhook_url: "${HOOKS}/in"\n';
    const r = load(text, { MENUCTL_VAR_PROD_HOOKS: 'https://process.example.com' }, 'prod');
    expect(r.diagnostics).toEqual([]);
    expect(r.state!.apps[0]!.webhook_url).toBe('https://process.example.com/in');
  });

  it('an unresolved name in one environment says so for that environment, keeping the hint', () => {
    const text = 'version: 1\nenvironments:\n  prod: { organization_id: 1 }\n' +
      'apps:\n  - name: Agent\n    package_name: com.example.agent\n    webhook_url: "${HOOKS}/in"\n';
    const r = load(text, { HOOKS: 'https://unprefixed.example.com' }, 'prod');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['env.undeclared']);
    expect(r.diagnostics[0]!.message).toContain('variable HOOKS has no value for environment "prod": add it to `environments.prod.variables`. The process environment sets HOOKS');
    expect(r.diagnostics[0]!.message).toContain('export MENUCTL_VAR_HOOKS=...');
  });

  it('MENUCTL_VAR_ itself is not a credential; the credentials stay refused however written', () => {
    const scope = new VariableScope({ MENUCTL_VAR_X: '1', MENUCTL_VAR_MENUCTL_TOKEN: 'a.b.c', MENUCTL_JWT_SECRET: 'x'.repeat(32) });
    expect(interpolate('${X}${MENUCTL_VAR_X}', scope)).toEqual({ value: '11', issues: [] });
    for (const ref of ['${MENUCTL_TOKEN}', '${MENUCTL_JWT_SECRET}', '${MENUCTL_PASSWORD_PROD}']) {
      expect(interpolate(ref, scope).issues.map((i) => i.code), ref).toEqual(['env.credential']);
    }
  });
});
