// loadConfig on valid input: defaults, interpolation, merging, locations, and YAML safety.
import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadSources } from '../../src/config/load.js';
import { interpolate, VariableScope } from '../../src/config/interpolate.js';
import { decodeUtf8, readSources, utf16Of, type ReadResult } from '../../src/config/files.js';
import { resolveParser } from '../../src/model/canonical.js';

const env = { MENUCTL_VAR_HOOK: 'https://hooks.example.com/agent' };
const vars = (values: Record<string, string>) => new VariableScope(Object.fromEntries(Object.entries(values).map(([k, v]) => [`MENUCTL_VAR_${k}`, v])));
const load = (text: string, e: Record<string, string | undefined> = env) =>
  loadSources([{ file: 'm.yaml', text }], { env: e, cwd: '/' });

const BASE = `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172, "Airtel/Zain/Celtel Ltd."]
    steps:
      - press: 01
        expect: My account
      - variable: phone
      - select: bundle
      - pin
      - { pin: true, description: again }
      - ok
    parsers:
      - category: balance
        status: succeeded
        regex: 'Your balance is (?<balance>\\d+)'
      - category: confirmed
        status: succeeded
        target_type: sms
        sender: MPESA
        regex: '.*Confirmed.*'
    tests:
      - message: Your balance is 5
        expect: { category: balance, variables: { balance: 5 } }
      - message: Confirmed
        sender: MPESA
        expect: none
apps:
  - name: Agent
    package_name: com.example.agent
    webhook_url: \${HOOK}
  - name: Till
    package_name: com.example.till
`;

describe('loadSources on valid input', () => {
  it('builds the model with defaults filled', () => {
    const r = load(BASE);
    expect(r.diagnostics).toEqual([]);
    const a = r.state!.actions[0]!;
    expect(a.steps).toEqual([
      { kind: 'press', value: '01', expect: 'My account' },
      { kind: 'variable', name: 'phone' },
      { kind: 'select', name: 'bundle' },
      { kind: 'pin' },
      { kind: 'pin', description: 'again' },
      { kind: 'ok' },
    ]);
    expect(a.parsers[0]).toMatchObject({ target_type: 'ussd', sender: null, user_message: '' });
    expect(a.parsers[1]).toMatchObject({ target_type: 'sms', sender: 'MPESA' });
    expect(a.tests[0]).toMatchObject({ channel: 'ussd', expect: { category: 'balance', variables: { balance: '5' } } });
    expect(a.tests[1]).toMatchObject({ channel: 'sms', sender: 'MPESA', expect: 'none' });
    expect(r.state!.apps[0]!.webhook_url).toBe('https://hooks.example.com/agent');
    expect(r.state!.apps[1]!.webhook_url).toBeNull();
    expect(r.state!.files).toEqual(['m.yaml']);
  });

  it('shares one frozen object per distinct step, and reads each step as written', () => {
    const action = (name: string, steps: string) => `  - name: ${name}\n    root_code: "*1#"\n    transport_type: ussd\n    operators: [2172]\n    steps: ${steps}\n`;
    const out = load(`version: 1\nactions:\n${action('A', '[{press: 1, expect: Menu}, pin, {variable: amount}]')}${action('B', '[{press: 1, expect: Menu}, pin, {press: "01"}]')}`);
    const [a, b] = out.state!.actions;
    expect(a!.steps).toEqual([{ kind: 'press', value: '1', expect: 'Menu' }, { kind: 'pin' }, { kind: 'variable', name: 'amount' }]);
    expect(b!.steps).toEqual([{ kind: 'press', value: '1', expect: 'Menu' }, { kind: 'pin' }, { kind: 'press', value: '01' }]);
    expect(b!.steps[0]).toBe(a!.steps[0]);
    expect(b!.steps[1]).toBe(a!.steps[1]);
    expect(Object.isFrozen(a!.steps[0])).toBe(true);
  });

  it('puts a loc on every resource, parser, fixture and operator ref', () => {
    const a = load(BASE).state!.actions[0]!;
    expect(a.loc).toEqual({ file: 'm.yaml', line: 3, col: 5 });
    expect(a.operators.map((o) => o.loc)).toEqual([{ file: 'm.yaml', line: 6, col: 17 }, { file: 'm.yaml', line: 6, col: 23 }]);
    expect(a.parsers[1]!.loc).toMatchObject({ line: 19, col: 9 });
    expect(a.tests[1]!.loc).toMatchObject({ line: 27, col: 9 });
  });

  it('tells UTF-16 from UTF-8, with or without a byte-order mark', () => {
    const le = Buffer.from(BASE, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(utf16Of(le)).toBe('UTF-16LE');
    expect(utf16Of(Buffer.concat([Buffer.from([0xff, 0xfe]), le]))).toBe('UTF-16LE');
    expect(utf16Of(be)).toBe('UTF-16BE');
    expect(utf16Of(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('UTF-16BE');
    for (const text of [BASE, `\uFEFF${BASE}`, 'é: ü\n', 'a', 'ab\0']) expect(utf16Of(Buffer.from(text))).toBeNull();
  });

  it('a UTF-16 config file is named as UTF-16, at its first line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-utf16-'));
    writeFileSync(path.join(dir, 'm.yaml'), Buffer.from(BASE, 'utf16le'));
    const r = await loadConfig([path.join(dir, 'm.yaml')], { env, cwd: dir });
    expect(r.state).toBeNull();
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'config.encoding', loc: { file: 'm.yaml', line: 1, col: 1 } })]);
    expect(r.diagnostics[0]!.message).toMatch(/^file is UTF-16LE, not UTF-8 .* Re-save it as UTF-8\.$/);
  });

  it('a file changed since the earlier read is read again, even at the same size (the environments are read before the load)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-reread-'));
    const file = path.join(dir, 'm.yaml');
    writeFileSync(file, 'a: 1\n');
    utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000)); // settled: kept after the read
    const first = await readSources([file], dir);
    const texts = (r: ReadResult) => r.files.map((f) => ({ file: f.file, text: f.text }));
    expect(texts(first)).toEqual([{ file: 'm.yaml', text: 'a: 1\n' }]);
    // Unchanged, given the earlier read: the same text (the same holder), from a stat.
    const second = await readSources([file], dir, first.texts);
    expect(texts(second)).toEqual([{ file: 'm.yaml', text: 'a: 1\n' }]);
    expect(second.files[0]!.holder).toBe(first.files[0]!.holder);
    // Without it, nothing is remembered between reads: read afresh.
    expect((await readSources([file], dir)).files[0]!.holder).not.toBe(first.files[0]!.holder);
    writeFileSync(file, 'b: 2\n');
    expect(texts(await readSources([file], dir, second.texts))).toEqual([{ file: 'm.yaml', text: 'b: 2\n' }]);
    rmSync(file);
    expect((await readSources([file], dir, second.texts)).diagnostics).toEqual([expect.objectContaining({ code: 'config.not-found' })]);
  });

  it('accepts a UTF-8 BOM', () => {
    expect(decodeUtf8(Buffer.from(`\uFEFF${BASE}`))).toEqual({ text: BASE });
  });

  it('warns but passes for a sender on a ussd parser and a fixture variable that is no group', () => {
    const text = BASE.replace("        regex: 'Your balance", "        sender: MPESA\n        regex: 'Your balance")
      .replace('variables: { balance: 5 }', 'variables: { amount: 5 }');
    const r = load(text);
    expect(r.state).not.toBeNull();
    expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['warning', 'semantic.sender-ignored'], ['warning', 'semantic.fixture-variable'],
    ]);
    // The model keeps the value as written; the parser the API gets has none (model/canonical.ts).
    const parser = r.state!.actions[0]!.parsers[0]!;
    expect(parser.sender).toBe('MPESA');
    expect(resolveParser(parser).sender).toBeNull();
  });

  it('reports every problem at once, sorted by location', () => {
    const text = BASE.replace('transport_type: ussd', 'transport_type: usd').replace('status: succeeded', 'status: ok')
      .replace('package_name: com.example.till', 'package_name: com.example.agent');
    const r = load(text);
    expect(r.state).toBeNull();
    expect(r.diagnostics.map((d) => `${d.loc!.line}:${d.code}`)).toEqual(['5:schema.enum', '17:schema.enum', '35:semantic.duplicate-app']);
  });
});

describe('interpolation', () => {
  it('replaces ${VAR}, keeps $${ as a literal ${, and treats an empty value as set', () => {
    expect(interpolate('a ${X} b $${X} c ${E}', vars({ X: '1', E: '' }))).toEqual({ value: 'a 1 b ${X} c ', issues: [] });
  });

  it('${VAR:-default} uses the default only when VAR is unset (an empty value counts as set)', () => {
    expect(interpolate('${A:-x}|${B:-y}|${C:-}|${D:-a:-b}', vars({ A: '1', B: '' }))).toEqual({ value: '1||' + '|a:-b', issues: [] });
    expect(interpolate('${:-x}', vars({})).issues).toEqual([expect.objectContaining({ code: 'env.syntax' })]);
  });

  it('names an unset variable at its column', () => {
    const r = load(BASE, {});
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'env.unset', loc: { file: 'm.yaml', line: 33, col: 18 }, address: 'app["com.example.agent"]' })]);
    expect(r.diagnostics[0]!.message).toContain('HOOK');
  });

  it('interpolates before checking formats: a variable holding a non-URL fails the URL check', () => {
    const r = load(BASE, { MENUCTL_VAR_HOOK: 'not a url' });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['schema.pattern']);
  });

  it('locates a reference inside a double-quoted scalar with escapes', () => {
    const r = load('version: 1\napps:\n  - name: "A\\tB ${NOPE}"\n    package_name: com.example.a\n', {});
    expect(r.diagnostics[0]).toMatchObject({ code: 'env.unset', loc: { line: 3, col: 17 } });
  });
});

describe('YAML safety', () => {
  it('a __proto__ / constructor / prototype key pollutes nothing and is reported', () => {
    const text = 'version: 1\n__proto__: { polluted: true }\nconstructor: { prototype: { polluted: true } }\nprototype: 1\n';
    const r = load(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(r.diagnostics.map((d) => [d.code, d.loc!.line, d.message.match(/`([^`]+)`/)![1]])).toEqual([
      ['schema.additional-property', 2, '__proto__'],
      ['schema.additional-property', 3, 'constructor'],
      ['schema.additional-property', 4, 'prototype'],
    ]);
  });

  it('refuses an alias bomb quickly without expanding it', () => {
    let text = 'version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 20; i++) text += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]\n`;
    const r = load(text);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['yaml.alias-limit']);
  });

  it('refuses an alias cycle', () => {
    const r = load('version: 1\nactions: &x [*x]\n');
    expect(r.diagnostics.map((d) => d.code)).toContain('yaml.alias-limit');
  });

  it('allows modest aliases (a shared operator list)', () => {
    const text = BASE.replace('operators: [2172, "Airtel/Zain/Celtel Ltd."]', 'operators: &ops [2172]');
    expect(load(text).diagnostics).toEqual([]);
  });
});

describe('loadConfig with files and directories', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-load-'));
  const action = (name: string) => `  - name: ${name}\n    root_code: "*1#"\n    transport_type: ussd\n    operators: [2172]\n`;
  mkdirSync(path.join(dir, 'cfg/sub'), { recursive: true });
  mkdirSync(path.join(dir, 'cfg/.hidden'), { recursive: true });
  writeFileSync(path.join(dir, 'cfg/b.yml'), `version: 1\norganization_id: 7\nactions:\n${action('B')}`);
  writeFileSync(path.join(dir, 'cfg/a.yaml'), `version: 1\nactions:\n${action('A')}`);
  writeFileSync(path.join(dir, 'cfg/sub/c.yaml'), `version: 1\norganization_id: 7\napps:\n  - name: C\n    package_name: com.example.c\n`);
  writeFileSync(path.join(dir, 'cfg/.hidden/x.yaml'), 'not: valid');
  writeFileSync(path.join(dir, 'cfg/notes.txt'), 'ignored');
  writeFileSync(path.join(dir, 'menuctl.yaml'), `version: 1\nactions:\n${action('Default')}`);

  it('merges every *.yaml/*.yml beneath a directory in sorted order; agreeing organization_ids are fine', async () => {
    const r = await loadConfig(['cfg'], { env: {}, cwd: dir });
    expect(r.diagnostics).toEqual([]);
    expect(r.state!.files).toEqual(['cfg/a.yaml', 'cfg/b.yml', 'cfg/sub/c.yaml']);
    expect(r.state!.actions.map((a) => a.name)).toEqual(['A', 'B']);
    expect(r.state!.organization_id).toBe(7);
    expect(r.state!.actions[1]!.loc).toEqual({ file: 'cfg/b.yml', line: 4, col: 5 });
  });

  it('reads ./menuctl.yaml by default', async () => {
    const r = await loadConfig([], { env: {}, cwd: dir });
    expect(r.state!.actions.map((a) => a.name)).toEqual(['Default']);
  });

  it('reads a file given twice once', async () => {
    const r = await loadConfig(['cfg/a.yaml', 'cfg'], { env: {}, cwd: dir });
    expect(r.state!.files).toEqual(['cfg/a.yaml', 'cfg/b.yml', 'cfg/sub/c.yaml']);
  });

  it('shows paths outside cwd as absolute', async () => {
    const r = await loadConfig([path.join(dir, 'cfg/a.yaml')], { env: {}, cwd: path.join(dir, 'cfg/sub') });
    expect(r.state!.files).toEqual([path.join(dir, 'cfg/a.yaml')]);
  });
});
