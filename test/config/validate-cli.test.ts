// The validate command's formats, and the pure diagnostic renderers it shares with other commands.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDiagnosticsText, renderGithubAnnotations } from '../../src/report/diagnostics.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(__dirname, '../..');

describe('validate --format json', () => {
  it('prints valid, counts and located diagnostics', async () => {
    const r = await runCli(['validate', 'test/fixtures/broken/bad-transport.yaml', '--format', 'json'], { cwd: ROOT });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ valid: false, errors: 1, warnings: 0 });
    expect(out.diagnostics[0]).toMatchObject({ code: 'schema.enum', address: 'action["Check balance"]',
      loc: { file: 'test/fixtures/broken/bad-transport.yaml', line: 6, col: 21 } });
  });
});

describe('validate colours', () => {
  const ESC = '\u001b[';
  it('follow the stream the problems go to: none in stderr redirected to a file from a terminal', async () => {
    const r = await runCli(['validate', 'test/fixtures/broken/bad-transport.yaml'],
      { cwd: ROOT, env: { NO_COLOR: undefined }, ttys: { stdout: true, stderr: false } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[schema.enum]');
    expect(r.stderr).not.toContain(ESC);
  });

  it('colour problems on a terminal stderr while stdout is piped', async () => {
    const r = await runCli(['validate', 'test/fixtures/broken/bad-transport.yaml'],
      { cwd: ROOT, env: { NO_COLOR: undefined }, ttys: { stdout: false, stderr: true } });
    expect(r.stderr).toContain(ESC);
  });
});

describe('GitHub Actions annotations', () => {
  it('are printed when GITHUB_ACTIONS=true', async () => {
    const r = await runCli(['validate', 'test/fixtures/broken/bad-transport.yaml'], { cwd: ROOT, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.stdout).toMatch(/^::error file=test\/fixtures\/broken\/bad-transport\.yaml,line=6,col=21,title=menuctl schema\.enum::action\["Check balance"\]: `usd`/m);
  });

  it('are not printed otherwise', async () => {
    const r = await runCli(['validate', 'test/fixtures/broken/bad-transport.yaml'], { cwd: ROOT });
    expect(r.stdout).not.toContain('::error');
  });

  it('escape %, CR and LF in messages and , : in properties', () => {
    const d: Diagnostic = { severity: 'warning', code: 'x', message: '100%\r\nnext', loc: { file: 'a,b:c.yaml', line: 1, col: 2 } };
    expect(renderGithubAnnotations([d])).toBe('::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=menuctl x::100%25%0D%0Anext\n');
  });
});

describe('text renderer', () => {
  it('shows the source line with a caret under the column, tabs kept', () => {
    const d: Diagnostic = { severity: 'error', code: 'c', message: 'm', address: 'app["p"]', loc: { file: 'f.yaml', line: 2, col: 4 } };
    const out = renderDiagnosticsText([d], { sources: new Map([['f.yaml', 'one\n\tab: x\n']]) });
    expect(out).toBe('f.yaml:2:4: error[c] app["p"]: m\n 2 | \tab: x\n   | \t  ^\n');
  });

  it('shows a window of a long line around the column, the caret under it', () => {
    const line = `${'a'.repeat(300)}X${'b'.repeat(300)}`;
    const at = (col: number) => {
      const d: Diagnostic = { severity: 'error', code: 'c', message: 'm', loc: { file: 'f.yaml', line: 1, col } };
      const [, source, caret] = renderDiagnosticsText([d], { sources: new Map([['f.yaml', line]]) }).split('\n');
      return { shown: source!.slice(' 1 | '.length), under: source![caret!.indexOf('^')] };
    };
    expect(at(301).under).toBe('X');
    expect(at(301).shown).toMatch(/^\.\.\.a+Xb+\.\.\.$/);
    expect(at(301).shown.length).toBe(206);
    expect(at(2)).toEqual({ shown: `${'a'.repeat(200)}...`, under: 'a' });
    expect(at(601).under).toBe('b');
    expect(at(601).shown).toBe(`...${line.slice(401)}`);
  });

  it('prints a diagnostic without location or source alone', () => {
    expect(renderDiagnosticsText([{ severity: 'error', code: 'config.not-found', message: 'x: no such file' }]))
      .toBe('error[config.not-found]: x: no such file\n');
  });
});
