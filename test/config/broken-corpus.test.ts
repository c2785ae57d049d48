// Every broken config in test/fixtures/broken/ fails validation with the right code at the right
// line (and column where it is meaningful), through the real CLI.
import { mkdtempSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(__dirname, '../..');
const DIR = 'test/fixtures/broken';

interface Case { file: string; code: string; line: number; col?: number; text?: string; at?: string }

const CASES: Case[] = [
  { file: 'syntax-unclosed-flow.yaml', code: 'yaml.syntax', line: 6 },
  { file: 'syntax-bad-indent.yaml', code: 'yaml.syntax', line: 5 },
  { file: 'duplicate-key.yaml', code: 'yaml.duplicate-key', line: 8, col: 5 },
  { file: 'alias-bomb.yaml', code: 'yaml.alias-limit', line: 7 },
  { file: 'unknown-alias.yaml', code: 'yaml.unknown-alias', line: 7, col: 16, text: '*ops' },
  { file: 'multi-document.yaml', code: 'yaml.multi-document', line: 3, col: 1 },
  { file: 'empty.yaml', code: 'config.empty', line: 1, col: 1 },
  { file: 'comments-only.yaml', code: 'config.empty', line: 1, col: 1 },
  { file: 'root-list.yaml', code: 'config.root-type', line: 1, col: 1, text: 'not a list' },
  { file: 'root-scalar.yaml', code: 'config.root-type', line: 1, col: 1 },
  { file: 'missing-version.yaml', code: 'schema.required', line: 2, text: '`version`' },
  { file: 'wrong-version.yaml', code: 'schema.version', line: 2, col: 10 },
  { file: 'unknown-top-key.yaml', code: 'schema.additional-property', line: 3, col: 1, text: 'did you mean `actions`?' },
  { file: 'organization-not-integer.yaml', code: 'schema.type', line: 3, col: 18 },
  { file: 'unknown-step-kind.yaml', code: 'schema.step-kind', line: 10, col: 9, text: 'unknown step kind `presss`: did you mean `press`?' },
  { file: 'step-bare-word.yaml', code: 'schema.step-kind', line: 10, col: 9, text: 'did you mean `pin`?' },
  { file: 'step-two-kinds.yaml', code: 'schema.step-kinds', line: 10, col: 9 },
  { file: 'press-not-digits.yaml', code: 'schema.pattern', line: 9, col: 16 },
  { file: 'bad-transport.yaml', code: 'schema.enum', line: 6, col: 21, text: 'did you mean `ussd`?' },
  { file: 'bad-status.yaml', code: 'schema.enum', line: 13, col: 17, at: 'action["Check balance"].parser["balance"]' },
  { file: 'missing-regex.yaml', code: 'schema.required', line: 12, col: 9, text: '`regex`' },
  { file: 'parser-typo-key.yaml', code: 'schema.additional-property', line: 14, col: 9, text: 'did you mean `regex`?' },
  { file: 'operators-empty.yaml', code: 'schema.min-items', line: 7, col: 16 },
  { file: 'operators-not-list.yaml', code: 'schema.type', line: 7, col: 16 },
  { file: 'bad-webhook-url.yaml', code: 'schema.pattern', line: 6, col: 18, at: 'app["com.example.agent"]' },
  { file: 'bad-package-name.yaml', code: 'schema.pattern', line: 5, col: 19 },
  { file: 'proto-pollution.yaml', code: 'schema.additional-property', line: 8, col: 5, text: '`__proto__`' },
  { file: 'fixture-bad-expect.yaml', code: 'schema.type', line: 17, col: 17 },
  { file: 'unset-variable.yaml', code: 'env.unset', line: 6, col: 26, text: 'HOOK_HOST' },
  { file: 'bad-interpolation.yaml', code: 'env.syntax', line: 6, col: 44 },
  { file: 'duplicate-action.yaml', code: 'semantic.duplicate-action', line: 15, col: 11, text: 'duplicate-action.yaml:4:11' },
  { file: 'duplicate-parser-category.yaml', code: 'semantic.duplicate-parser', line: 15, col: 19 },
  { file: 'duplicate-app.yaml', code: 'semantic.duplicate-app', line: 7, col: 19 },
  { file: 'duplicate-pinned-id.yaml', code: 'semantic.duplicate-id', line: 20, col: 9 },
  { file: 'sms-without-sender.yaml', code: 'semantic.sender-required', line: 14 },
  { file: 'bad-root-code.yaml', code: 'semantic.root-code', line: 5, col: 16 },
  { file: 'ambiguous-operator.yaml', code: 'semantic.operator-ambiguous', line: 7, col: 17, text: '2001 "MTN" (gh)' },
  { file: 'unknown-operator-id.yaml', code: 'semantic.operator-unknown', line: 7, col: 23 },
  { file: 'operator-name-quirk.yaml', code: 'semantic.operator-unknown', line: 7, col: 17, text: '2501 "Telesom " (so)' },
  { file: 'fixture-unknown-category.yaml', code: 'semantic.fixture-category', line: 17, col: 29, text: 'did you mean `balance`?' },
  { file: 'fixture-sms-no-sender.yaml', code: 'semantic.fixture-channel', line: 17 },
  { file: 'renamed-from-self.yaml', code: 'semantic.renamed-from', line: 8, col: 19 },
  { file: 'regex-group-name.yaml', code: 'regex.group-name', line: 14, col: 33, at: 'action["Check balance"].parser["balance"]' },
  { file: 'regex-uncompilable.yaml', code: 'regex.syntax', line: 14 },
  { file: 'dir-duplicate-action', code: 'semantic.duplicate-action', line: 4, col: 11, text: 'dir-duplicate-action/a.yaml:4:11' },
  { file: 'dir-organization-conflict', code: 'semantic.organization-conflict', line: 3, col: 18, text: 'a.yaml:3:18' },
  // First-day mistakes (issue 11): the cause and the fix, where the fix goes.
  { file: 'first-day-unquoted-ussd.yaml', code: 'yaml.unknown-alias', line: 5, col: 16, text: 'Write `root_code: "*144#"`' },
  { file: 'first-day-ussd-comment.yaml', code: 'schema.type', line: 5, col: 16, text: '# starts a comment in YAML, so `#150#` was ignored. Quote it: `root_code: "#150#"`' },
  { file: 'first-day-unclosed-quote.yaml', code: 'yaml.syntax', line: 5, col: 16, text: 'this double quote is never closed' },
  { file: 'first-day-tab-indent.yaml', code: 'yaml.syntax', line: 7, col: 1, text: 'indented with a tab; YAML indents with spaces only' },
  { file: 'first-day-step-no-colon.yaml', code: 'schema.step-kind', line: 9, col: 9, text: 'Write `press: 1`' },
  { file: 'first-day-no-space-after-colon.yaml', code: 'yaml.syntax', line: 4, col: 5, text: 'no space after the colon, so YAML does not read it as a key. Write `name: Check balance`' },
];

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('broken configs', () => {
  it.each(CASES)('$file -> $code at line $line', async (c) => {
    const target = `${DIR}/${c.file}`;
    const r = await runCli(['validate', target], { cwd: ROOT });
    expect(r.code).toBe(1);
    const file = c.file.startsWith('dir-') ? `${target}/[ab]\\.yaml` : esc(target);
    const head = new RegExp(`^${file}:${c.line}:${c.col ?? '\\d+'}: error\\[${esc(c.code)}\\]( ((?:action|app)\\[".*?"\\](?:\\.parser\\[".*?"\\])?))?: (.*)$`, 'm');
    const m = head.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    if (c.at) expect(m![2]).toBe(c.at);
    if (c.text) expect(m![3]!.toLowerCase()).toContain(c.text.toLowerCase());
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // never a stack trace
  });
});

describe('generated broken inputs', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'menuctl-broken-'));

  it('reports the first byte that is not UTF-8 with its line and column', async () => {
    const bytes = Buffer.concat([Buffer.from('version: 1\napps:\n  - name: Caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    writeFileSync(path.join(tmp, 'latin1.yaml'), bytes);
    const r = await runCli(['validate', 'latin1.yaml'], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^latin1\.yaml:3:14: error\[config\.encoding\]/m);
  });

  it('refuses a file over 16 MiB before reading it', async () => {
    const file = path.join(tmp, 'huge.yaml');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 16 * 1024 * 1024 + 1); // sparse: no 16 MiB write needed
    closeSync(fd);
    const r = await runCli(['validate', 'huge.yaml'], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^huge\.yaml:1:1: error\[config\.too-large\].*16 MiB/m);
  });

  it('refuses an endless file (a device, a pipe) once it has read more than 16 MiB', async () => {
    symlinkSync('/dev/zero', path.join(tmp, 'endless.yaml'));
    const r = await runCli(['validate', 'endless.yaml'], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^endless\.yaml:1:1: error\[config\.too-large\].*16 MiB/m);
  });

  it('names a symbolic link that loops as such, not as a missing file', async () => {
    symlinkSync('loop-b.yaml', path.join(tmp, 'loop-a.yaml'));
    symlinkSync('loop-a.yaml', path.join(tmp, 'loop-b.yaml'));
    const r = await runCli(['validate', 'loop-a.yaml'], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[config.read]: loop-a.yaml: a symbolic link that loops back on itself; point it at the config file.');
  });

  it('names a missing path', async () => {
    const r = await runCli(['validate', 'nope.yaml'], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[config.not-found]: nope.yaml: no such file or directory');
  });

  it('looks for ./menuctl.yaml when no path is given, and says so when it is missing', async () => {
    const r = await runCli(['validate'], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('menuctl.yaml');
  });

  it('reports a directory without config files', async () => {
    const r = await runCli(['validate', '.'], { cwd: mkdtempSync(path.join(tmpdir(), 'menuctl-emptydir-')) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[config.no-files]');
  });
});
