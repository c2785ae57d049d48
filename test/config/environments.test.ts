// The loader with `environments:` (issue 14): each environment read with its own variables and
// resources; validate and test check every environment; credentials never interpolated.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';
import { runCli } from '../helpers/run-cli.js';

const CONFIG = `version: 1
environments:
  staging:
    organization_id: 81
    variables: { HOOKS: "https://staging-hooks.example.com", TIMEOUT: 30 }
  production:
    organization_id: 82
    variables: { HOOKS: "https://hooks.example.com" }
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    parsers:
      - category: balance
        status: succeeded
        regex: 'Your balance is .*'
      - category: beta
        environments: [staging]
        status: succeeded
        regex: 'Beta .*'
  - name: Beta menu
    environments: [staging]
    root_code: "*145#"
    transport_type: ussd
    operators: [2172]
apps:
  - name: Wallet
    package_name: com.example.wallet
    webhook_url: "\${HOOKS}/in"
`;

const load = (text: string, o: { environment?: string; env?: Record<string, string> } = {}) =>
  loadSources([{ file: 'm.yaml', text }], { env: o.env ?? {}, cwd: '/', ...(o.environment ? { environment: o.environment } : {}) });

describe('loading one environment', () => {
  it('takes its variables, organization and resources only', () => {
    const staging = load(CONFIG, { environment: 'staging' });
    expect(staging.diagnostics).toEqual([]);
    expect(staging.state!.environment).toBe('staging');
    expect(staging.state!.organization_id).toBe(81);
    expect(staging.state!.actions.map((a) => a.name)).toEqual(['Check balance', 'Beta menu']);
    expect(staging.state!.actions[0]!.parsers.map((p) => p.category)).toEqual(['balance', 'beta']);
    expect(staging.state!.apps[0]!.webhook_url).toBe('https://staging-hooks.example.com/in');

    const production = load(CONFIG, { environment: 'production' });
    expect(production.state!.organization_id).toBe(82);
    expect(production.state!.actions.map((a) => a.name)).toEqual(['Check balance']);
    expect(production.state!.actions[0]!.parsers.map((p) => p.category)).toEqual(['balance']);
    expect(production.state!.apps[0]!.webhook_url).toBe('https://hooks.example.com/in');
  });

  it("puts the environment's variables before the process environment", () => {
    const r = load(CONFIG, { environment: 'production', env: { MENUCTL_VAR_HOOKS: 'https://from-the-shell.example.com', HOOKS: 'https://unprefixed.example.com' } });
    expect(r.state!.apps[0]!.webhook_url).toBe('https://hooks.example.com/in');
  });

  it('leaves out the fixtures and sessions that expect a parser the environment leaves out', () => {
    const text = CONFIG.replace("        regex: 'Beta .*'\n", "        regex: 'Beta .*'\n    tests:\n      - message: Beta offer\n        expect: { category: beta }\n" +
      "    sessions:\n      - name: beta offer\n        screens: ['Beta offer']\n        expect: { category: beta }\n");
    const production = load(text, { environment: 'production' });
    expect(production.diagnostics).toEqual([]);
    expect(production.state!.actions[0]!.tests).toEqual([]);
    expect(production.state!.actions[0]!.sessions).toEqual([]);
    const staging = load(text, { environment: 'staging' });
    expect(staging.state!.actions[0]!.tests).toHaveLength(1);
    expect(staging.state!.actions[0]!.sessions).toHaveLength(1);
  });

  it('lets two resources share a name when each is limited to a different environment', () => {
    const twin = CONFIG.replace('  - name: Beta menu\n    environments: [staging]', '  - name: Check balance\n    environments: [staging]')
      .replace('  - name: Check balance\n    root_code', '  - name: Check balance\n    environments: [production]\n    root_code');
    expect(load(twin, { environment: 'staging' }).diagnostics).toEqual([]);
    expect(load(twin, { environment: 'production' }).diagnostics).toEqual([]);
  });
});

describe('checking every environment (validate, test)', () => {
  it('a variable defined as itself (`HOOKS: "${HOOKS}"`) passes the process value (MENUCTL_VAR_HOOKS) through, and is reported unset without one', () => {
    const selfRef = CONFIG.replace('HOOKS: "https://hooks.example.com"', 'HOOKS: "${HOOKS}"');
    const unset = load(selfRef);
    expect(unset.state).toBeNull();
    expect(unset.diagnostics.map((d) => d.code)).toContain('env.unset');
    expect(unset.diagnostics.find((d) => d.code === 'env.unset')!.message).toContain('variable HOOKS is not set for environment "production"');
    const passed = loadSources([{ file: 'm.yaml', text: selfRef }], { env: { MENUCTL_VAR_HOOKS: 'https://from-ci.example.com' }, cwd: '/', environment: 'production' });
    expect(passed.diagnostics).toEqual([]);
    expect(passed.state!.apps[0]!.webhook_url).toContain('https://from-ci.example.com');
  });

  it('a variable set to empty on purpose (`""` or `${NAME:-}`) stays defined, even where it is also referenced', () => {
    for (const empty of ['HOOKS: ""', 'HOOKS: "${HOOKS:-}"', "HOOKS: ''"]) {
      const text = CONFIG.replace('HOOKS: "https://hooks.example.com"', empty).replace('webhook_url: "\${HOOKS}/in"', 'webhook_url: "https://h.example.com/in${HOOKS}"');
      const r = load(text, { environment: 'production' });
      expect(r.diagnostics.filter((d) => d.code === 'env.unset'), empty).toEqual([]);
      expect(r.state!.apps[0]!.webhook_url).toBe('https://h.example.com/in');
    }
  });

  it('a self-reference counts only in the environment that writes it: another one\'s `""` stays defined', () => {
    const text = CONFIG.replace('HOOKS: "https://staging-hooks.example.com"', 'HOOKS: ""').replace('HOOKS: "https://hooks.example.com"', 'HOOKS: "${HOOKS}"')
      .replace('webhook_url: "\${HOOKS}/in"', 'webhook_url: "https://h.example.com/in${HOOKS}"');
    const r = load(text);
    expect(r.environments.map((e) => [e.name, e.variables])).toEqual([['staging', { HOOKS: '', TIMEOUT: '30' }], ['production', {}]]);
    expect(r.diagnostics.filter((d) => d.code === 'env.unset').map((d) => d.message)).toEqual([
      expect.stringContaining('variable HOOKS is not set for environment "production"'), expect.stringContaining('variable HOOKS is not set for environment "production"')]);
  });

  it("a self-reference single-quoted, or unquoted in block style, is seen too", () => {
    for (const variables of ["variables: { HOOKS: '${HOOKS}' }", 'variables:\n      HOOKS: ${HOOKS}']) {
      const r = load(CONFIG.replace('variables: { HOOKS: "https://hooks.example.com" }', variables), { environment: 'production' });
      expect(new Set(r.diagnostics.map((d) => d.code)), variables).toEqual(new Set(['env.unset']));
    }
  });

  it('reports a variable unset in one environment, naming the environment and the variable, located', () => {
    const r = load(CONFIG.replace('HOOKS: "https://hooks.example.com"', 'HOOK: "https://hooks.example.com"'));
    expect(r.state).toBeNull();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'env.unset', loc: { file: 'm.yaml', line: 30, col: 19 } });
    expect(r.diagnostics[0]!.message).toContain('variable HOOKS is not set for environment "production"');
    expect(r.diagnostics[0]!.message).toContain('environments.production.variables');
  });

  it('reports a problem common to every environment once, without naming one', () => {
    const r = load(CONFIG.replace("regex: 'Your balance is .*'", "regex: '(unclosed'"));
    const regex = r.diagnostics.filter((d) => d.severity === 'error');
    expect(regex.length).toBeGreaterThan(0);
    expect(new Set(regex.map((d) => `${d.loc?.line}:${d.code}`)).size).toBe(regex.length);
    expect(regex.every((d) => !d.message.includes('(environment'))).toBe(true);
  });

  it('refuses an unknown environment name on a resource, suggesting the closest', () => {
    const r = load(CONFIG.replace('environments: [staging]\n    root_code', 'environments: [stagin]\n    root_code'));
    const d = r.diagnostics.find((x) => x.code === 'environment.unknown')!;
    expect(d.message).toContain('unknown environment "stagin"');
    expect(d.message).toContain('Did you mean `staging`?');
    expect(d.loc).toMatchObject({ line: 23, col: 20 });
  });

  it('refuses `environments: [names]` in a config that defines none', () => {
    const r = load('version: 1\napps:\n  - name: A\n    package_name: com.a\n    environments: [staging]\n');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['environment.unknown']);
    expect(r.diagnostics[0]!.message).toContain('the config defines none');
  });

  it('warns about an environment without organization_id: nothing would guard it', () => {
    const r = load(CONFIG.replace('    organization_id: 82\n', ''));
    expect(r.state).not.toBeNull();
    expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'environment.no-organization']]);
  });

  it('refuses the same environment defined in two files', () => {
    const r = loadSources([
      { file: 'a.yaml', text: CONFIG },
      { file: 'b.yaml', text: 'version: 1\nenvironments:\n  staging: { organization_id: 81 }\n' },
    ], { env: {}, cwd: '/' });
    expect(r.diagnostics.map((d) => d.code)).toContain('environment.duplicate');
  });

  it('refuses two environments that would read one credential variable (prod-eu and prod_eu)', () => {
    const r = loadSources([{ file: 'a.yaml', text: 'version: 1\nenvironments:\n  prod-eu: { organization_id: 1 }\n  prod_eu: { organization_id: 2 }\n' }], { env: {}, cwd: '/' });
    const clash = r.diagnostics.find((d) => d.code === 'environment.credential-clash');
    expect(clash?.message).toContain('would both take their credentials from MENUCTL_TOKEN_PROD_EU');
    expect(clash?.loc?.line).toBe(4);
  });
});

describe("menuctl's credential variables are never interpolated", () => {
  it.each(['MENUCTL_TOKEN', 'MENUCTL_TOKEN_PRODUCTION', 'MENUCTL_PASSWORD', 'MENUCTL_PASSWORD_STAGING', 'MENUCTL_EMAIL'])('${%s} is an error naming it, located, and its value is never shown', (name) => {
    const secret = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.c2ln';
    const r = load(`version: 1\napps:\n  - name: A\n    package_name: com.a\n    webhook_url: "https://x.example.com/\${${name}}"\n`, { env: { [name]: secret } });
    expect(r.state).toBeNull();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'env.credential', loc: { line: 5, col: 41 } });
    expect(r.diagnostics[0]!.message).toContain(name);
    expect(JSON.stringify(r.diagnostics)).not.toContain(secret);
  });

  it('also as a per-environment variable name is not a way around it', () => {
    const r = load(CONFIG.replace('"${HOOKS}/in"', '"${MENUCTL_TOKEN_STAGING:-none}"'), { environment: 'staging', env: { MENUCTL_TOKEN_STAGING: 'a.b.c' } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['env.credential']);
  });
});

describe('the CLI', () => {
  it('validate checks every environment and exits 1 on a variable unset in one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-envcfg-'));
    try {
      writeFileSync(join(dir, 'menuctl.yaml'), CONFIG.replace('HOOKS: "https://hooks.example.com"', 'OTHER: "x"'));
      const r = await runCli(['validate'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('menuctl.yaml:30:19: error[env.unset] app["com.example.wallet"]: variable HOOKS is not set for environment "production"');
      writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
      expect((await runCli(['validate'], { cwd: dir })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("test runs every environment: a fixture for a staging-only parser runs in staging only; one that fails in one environment names it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-envcfg-'));
    const results = async (text: string) => {
      writeFileSync(join(dir, 'menuctl.yaml'), text);
      const r = await runCli(['test', '--format', 'json'], { cwd: dir });
      return { code: r.code, results: (JSON.parse(r.stdout) as { results: { address: string; message: string; status: string }[] }).results.map((f) => [f.address, f.message, f.status]) };
    };
    try {
      const fixtures = "        regex: 'Beta .*'\n    tests:\n      - message: Beta offer\n        expect: { category: beta }\n      - message: Your balance is 5\n        expect: { category: balance }\n";
      const ok = await results(CONFIG.replace("        regex: 'Beta .*'\n", fixtures));
      expect(ok.code).toBe(0);
      expect(ok.results).toEqual([
        ['action["Check balance"] (environment staging)', 'Beta offer', 'passed'],
        ['action["Check balance"]', 'Your balance is 5', 'passed'],
      ]);
      // The regex takes a per-environment value: the fixture passes in staging only.
      const branded = CONFIG.replace("'Your balance is .*'", "'${BRAND} balance is .*'")
        .replace('TIMEOUT: 30 }', 'TIMEOUT: 30, BRAND: Acme }').replace('"https://hooks.example.com" }', '"https://hooks.example.com", BRAND: Zeta }');
      const failing = await results(branded.replace("        regex: 'Beta .*'\n", "        regex: 'Beta .*'\n    tests:\n      - message: Acme balance is 5\n        expect: { category: balance }\n"));
      expect(failing.code).toBe(1);
      expect(failing.results).toEqual([
        ['action["Check balance"] (environment staging)', 'Acme balance is 5', 'passed'],
        ['action["Check balance"] (environment production)', 'Acme balance is 5', 'failed'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('finding the environments before connecting', () => {
  it('honours ${VAR:-default} in an environment, and takes the process value when set', async () => {
    const { loadEnvironments } = await import('../../src/config/load.js');
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-envcfg-'));
    try {
      writeFileSync(join(dir, 'menuctl.yaml'), 'version: 1\nenvironments:\n  staging:\n    api_url: "${STAGING_URL:-https://stage.example.com}"\n    organization_id: 81\n');
      const fallback = await loadEnvironments([], { env: {}, cwd: dir });
      expect(fallback.environments.map((e) => e.api_url)).toEqual(['https://stage.example.com']);
      const set = await loadEnvironments([], { env: { MENUCTL_VAR_STAGING_URL: 'https://other.example.com' }, cwd: dir });
      expect(set.environments.map((e) => e.api_url)).toEqual(['https://other.example.com']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
