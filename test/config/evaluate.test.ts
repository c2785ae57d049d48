// Load, then evaluate (issue 25 item 2): each file is parsed once per run, whatever its style and
// however many environments; `${VAR}` is interpolated afterwards, per environment, from those
// values, and its issues are located from their path. parseCount counts real parses (fast or
// precise), so these tests fail if a file is parsed again for an environment, for the definitions,
// or by the precise path to locate an issue.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/config/evaluate.js';
import { VariableScope } from '../../src/config/interpolate.js';
import { loadConfig, loadEnvironments, loadSources } from '../../src/config/load.js';
import { originOf } from '../../src/config/origin.js';
import { parseCount, parseFile } from '../../src/config/parse.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';

/** Parses made while `fn` runs. */
function parsesDuring<T>(fn: () => T): { result: T; files: number; precise: number } {
  const before = { ...parseCount };
  const result = fn();
  return { result, files: parseCount.files - before.files, precise: parseCount.precise - before.precise };
}

const ENVIRONMENTS = `version: 1
environments:
  staging: { organization_id: 81, variables: { HOOKS: "https://staging.example.com", PROMPT: Stage } }
  production: { organization_id: 82, variables: { HOOKS: "https://hooks.example.com", PROMPT: Prod } }
  dev: { organization_id: 83, variables: { HOOKS: "https://dev.example.com", PROMPT: Dev } }
`;

const ACTIONS = `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps: [{ press: 01, expect: "\${PROMPT} menu" }, pin]
    parsers:
      - category: balance
        status: succeeded
        regex: 'Your balance is .*'
`;

/** Read on the precise path (an anchor and an alias): two apps share one webhook written once. */
const APPS = `version: 1
apps:
  - name: Wallet
    package_name: com.example.wallet
    webhook_url: &hook "\${HOOKS}/in"
  - name: Till
    package_name: com.example.till
    webhook_url: *hook
`;

const FILES = [{ file: 'environments.yaml', text: ENVIRONMENTS }, { file: 'actions.yaml', text: ACTIONS }, { file: 'apps.yaml', text: APPS }];

describe('each file is parsed once per run', () => {
  it('three environments, all checked: three files, three parses (one by the precise path), each environment with its own values', () => {
    const { result, files, precise } = parsesDuring(() => loadSources(FILES, { env: {}, cwd: '/' }));
    expect(result.diagnostics).toEqual([]);
    expect(files).toBe(3);
    expect(precise).toBe(1);
    const states = result.perEnvironment!.map((p) => ({
      name: p.name,
      hooks: p.state!.apps.map((a) => a.webhook_url),
      steps: p.state!.actions[0]!.steps,
    }));
    expect(states).toEqual([
      { name: 'staging', hooks: ['https://staging.example.com/in', 'https://staging.example.com/in'], steps: [{ kind: 'press', value: '01', expect: 'Stage menu' }, { kind: 'pin' }] },
      { name: 'production', hooks: ['https://hooks.example.com/in', 'https://hooks.example.com/in'], steps: [{ kind: 'press', value: '01', expect: 'Prod menu' }, { kind: 'pin' }] },
      { name: 'dev', hooks: ['https://dev.example.com/in', 'https://dev.example.com/in'], steps: [{ kind: 'press', value: '01', expect: 'Dev menu' }, { kind: 'pin' }] },
    ]);
  });

  it('one environment selected (--env): the same three parses', () => {
    const { result, files } = parsesDuring(() => loadSources(FILES, { env: {}, cwd: '/', environment: 'production' }));
    expect(result.diagnostics).toEqual([]);
    expect(result.state!.apps.map((a) => a.webhook_url)).toEqual(['https://hooks.example.com/in', 'https://hooks.example.com/in']);
    expect(files).toBe(3);
  });

  it("the CLI's sequence, environments before connecting and then the load, parses each file once", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-parse-once-'));
    try {
      for (const f of FILES) writeFileSync(join(dir, f.file), f.text);
      const env = {};
      const { result, files } = await parsesDuringAsync(async () => {
        const found = await loadEnvironments([dir], { env, cwd: dir });
        const loaded = await loadConfig([dir], { env, cwd: dir, environment: 'staging', read: found.read });
        return { found, loaded };
      });
      expect(result.found.environments.map((e) => e.name)).toEqual(['staging', 'production', 'dev']);
      expect(result.loaded.diagnostics).toEqual([]);
      expect(result.loaded.state!.environment).toBe('staging');
      // The definitions the CLI acted on are the ones the load used.
      expect(result.loaded.environments[0]).toBe(result.found.environments[0]);
      expect(files).toBe(3);
      // A parse is handed over once: the read is taken by the load, and the next load parses again.
      expect(result.found.read.take()).toBeUndefined();
      const again = await parsesDuringAsync(() => loadConfig([dir], { env, cwd: dir, environment: 'dev', read: result.found.read }));
      expect(again.result.state!.environment).toBe('dev');
      expect(again.files).toBe(3);
      // Nothing is kept between commands: a load without the read parses every file too.
      const other = await parsesDuringAsync(() => loadConfig([dir], { env, cwd: dir, environment: 'dev' }));
      expect(other.files).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a file changed between finding the environments and the load is read and parsed again, and its definitions found again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-parse-changed-'));
    try {
      for (const f of FILES) writeFileSync(join(dir, f.file), f.text);
      const env = {};
      const found = await loadEnvironments([dir], { env, cwd: dir });
      writeFileSync(join(dir, 'environments.yaml'), ENVIRONMENTS.replace('organization_id: 81', 'organization_id: 91'));
      const loaded = await loadConfig([dir], { env, cwd: dir, environment: 'staging', read: found.read });
      expect(found.environments[0]!.organization_id).toBe(81);
      expect(loaded.environments[0]!.organization_id).toBe(91);
      expect(loaded.state!.organization_id).toBe(91);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function parsesDuringAsync<T>(fn: () => Promise<T>): Promise<{ result: T; files: number; precise: number }> {
  const before = { ...parseCount };
  const result = await fn();
  return { result, files: parseCount.files - before.files, precise: parseCount.precise - before.precise };
}

describe('evaluation', () => {
  it('for several environments copies only the containers on the path to a changed string, and leaves the parsed values as written', () => {
    const parsed = parseFile({ file: 'a.yaml', text: ACTIONS });
    const written = structuredClone(parsed.values);
    const actions = (parsed.values as { actions: unknown[] }).actions;
    const untouched = (actions[0] as { parsers: unknown }).parsers;
    const scope = (PROMPT: string) => new VariableScope({}, { PROMPT });
    const a = evaluate(parsed, scope('A'), [], { shared: true });
    const b = evaluate(parsed, scope('B'), [], { shared: true });
    expect(parsed.values).toEqual(written);
    const stepsOf = (root: unknown) => ((root as { actions: { steps: unknown[] }[] }).actions[0]!.steps);
    expect(stepsOf(a.root)[0]).toEqual({ press: 1, expect: 'A menu' });
    expect(stepsOf(b.root)[0]).toEqual({ press: 1, expect: 'B menu' });
    // Numbers as written follow the copies; what no string changed is shared, not copied.
    const step = stepsOf(a.root)[0] as object;
    expect(a.src.written(step, 'press')).toBe('01');
    expect((a.root!.actions as { parsers: unknown }[])[0]!.parsers).toBe(untouched);
    expect(stepsOf(a.root)[1]).toBe(stepsOf(parsed.values)[1]);
  });

  it('with one evaluation (no environments, or --env) changes the parsed values in place, copying nothing', () => {
    const parsed = parseFile({ file: 'a.yaml', text: ACTIONS });
    const e = evaluate(parsed, new VariableScope({}, { PROMPT: 'A' }), [], { shared: false });
    expect(e.root).toBe(parsed.values);
    expect(((parsed.values as { actions: { steps: unknown[] }[] }).actions[0]!.steps[0])).toEqual({ press: 1, expect: 'A menu' });
  });

  it('an alias takes its anchor\'s value for each environment, and an issue in it is reported once, at the anchor', () => {
    const { result } = parsesDuring(() => loadSources([{ file: 'apps.yaml', text: APPS }, { file: 'environments.yaml', text: ENVIRONMENTS.replace(', variables: { HOOKS: "https://dev.example.com", PROMPT: Dev }', '') }], { env: {}, cwd: '/' }));
    expect(result.diagnostics.map((d) => [d.code, d.loc, d.address, d.message.slice(0, 50)])).toEqual([
      ['env.unset', { file: 'apps.yaml', line: 5, col: 25 }, 'app["com.example.wallet"]', 'variable HOOKS is not set for environment "dev": a'],
      // The alias's value is checked where it is used, as before evaluation was a step of its own.
      ['schema.pattern', { file: 'apps.yaml', line: 8, col: 18 }, 'app["com.example.till"]', '`webhook_url` must be an http:// or https:// URL ('],
    ]);
    expect(result.perEnvironment!.map((p) => p.state?.apps.map((a) => a.webhook_url))).toEqual([
      ['https://staging.example.com/in', 'https://staging.example.com/in'], ['https://hooks.example.com/in', 'https://hooks.example.com/in'], undefined]);
  });
});

describe('an interpolation issue in a big flow-style file', () => {
  // 2,000 actions written as JSON over many lines (what generators write): the fast path reads it.
  const actions = Array.from({ length: 2000 }, (_, i) => ({
    name: `Action ${i}`, root_code: `*${100 + i}#`, transport_type: 'ussd', operators: [2172],
    parsers: [{ category: 'balance', status: 'succeeded', regex: `Balance ${i} is (?<amount>\\d+)` }],
  }));
  (actions[1234]!.parsers[0] as Record<string, string>).user_message = 'Tab\there, then ${NOPE} and ${HOOK}';
  const text = `${JSON.stringify({ version: 1, actions }, null, 2)}\n`;

  it('is located at its character and addressed, from its path, without the precise path', () => {
    const { result, files, precise } = parsesDuring(() => loadSources([{ file: 'flow.yaml', text }], { env: { MENUCTL_VAR_HOOK: 'h' }, cwd: '/' }));
    expect(files).toBe(1);
    expect(precise).toBe(0);
    // Where `${NOPE}` is in the text (the JSON escapes \t as two characters before it).
    const offset = text.indexOf('${NOPE}');
    const line = text.slice(0, offset).split('\n').length;
    const col = offset - text.lastIndexOf('\n', offset - 1);
    expect(result.diagnostics.map((d) => [d.code, d.loc, d.address])).toEqual([
      ['env.unset', { file: 'flow.yaml', line, col }, 'action["Action 1234"].parser["balance"]'],
    ]);
  });

  it('is located the same when the file is read by the precise path', () => {
    const diagnostics: Diagnostic[] = [];
    const fast = parseFile({ file: 'flow.yaml', text });
    evaluate(fast, new VariableScope({ MENUCTL_VAR_HOOK: 'h' }), diagnostics, { shared: false });
    const offset = text.indexOf('${NOPE}');
    expect(diagnostics).toHaveLength(1);
    expect(fast.src.positioned).toBe(true); // its positions were needed for the report, and built then
    const precise: Diagnostic[] = [];
    const loaded = loadSources([{ file: 'flow.yaml', text: `%YAML 1.2\n---\n${text}` }], { env: { MENUCTL_VAR_HOOK: 'h' }, cwd: '/' });
    for (const d of loaded.diagnostics) precise.push(d);
    expect(precise.map((d) => [d.code, d.loc!.line - 2, d.loc!.col, d.address])).toEqual(diagnostics.map((d) => [d.code, d.loc!.line, d.loc!.col, d.address]));
    expect(diagnostics[0]!.loc!.col).toBe(offset - text.lastIndexOf('\n', offset - 1));
  });

  it('a clean load of it builds no positioned document', () => {
    const clean = text.replace('${NOPE}', 'x');
    const r = loadSources([{ file: 'flow.yaml', text: clean }], { env: { MENUCTL_VAR_HOOK: 'h' }, cwd: '/' });
    expect(r.diagnostics).toEqual([]);
    expect(originOf(r.state!.actions[0]!)!.src.positioned).toBe(false);
  });
});
