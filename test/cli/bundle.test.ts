// The package's bin is the bundled CLI, dist/bin/menuctl.js and its chunks (scripts/build-cli.mjs,
// built by `npm run build`, which `npm test` runs first). It must be the same program as the
// unbundled dist/cli/main.js: same output and exit code, command by command, including the lazily
// loaded parts (the yaml parser, the regex sandbox's worker, the HTTP client, the reference server
// with SQLite).
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUNDLE = join(ROOT, 'dist', 'bin', 'menuctl.js');
const UNBUNDLED = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

async function both(args: string[], env: Record<string, string> = {}, cwd = ROOT) {
  const go = async (main: string) => {
    try {
      const r = await run(process.execPath, [main, ...args], { cwd, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, stdout: x.stdout, stderr: x.stderr };
    }
  };
  return { bundled: await go(BUNDLE), unbundled: await go(UNBUNDLED) };
}

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'menuctl-bundle-'));
  writeFileSync(join(dir, 'broken.yaml'), 'version: 1\nactions:\n  - name: A\n    root_code: "*1#"\n    transport_type: ussd\n    operators: [2172]\n    parsers:\n      - category: x\n        status: succeeded\n        regex: "(unclosed"\n');
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled CLI (the package bin)', () => {
  it('is the bin, an executable Node script', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin.menuctl).toBe('dist/bin/menuctl.js');
    expect(readFileSync(BUNDLE, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it.each([
    ['--version'],
    ['plan', '--help'],
    ['validate', 'examples'],
    ['test', 'examples'],
    ['analyze', 'examples', '--format', 'json'],
  ])('%s %s: the same output and exit code as the unbundled build', async (...args) => {
    const r = await both(args);
    expect(r.bundled).toEqual(r.unbundled);
  });

  it('every command\'s --help (each loads its own chunk): the same as the unbundled build', async () => {
    const top = await both(['--help']);
    expect(top.bundled).toEqual(top.unbundled);
    const commands = [...top.bundled.stdout.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(15);
    for (const c of commands) {
      const r = await both([c, '--help']);
      expect(r.bundled, c).toEqual(r.unbundled);
    }
  });

  it('validate of a broken config: the same located error and exit code', async () => {
    const r = await both(['validate', join(dir, 'broken.yaml')]);
    expect(r.bundled.code).toBe(1);
    expect(r.bundled).toEqual(r.unbundled);
  });

  it('plan against the reference server: the same plan', async () => {
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token };
    const r = await both(['plan', join(ROOT, 'examples'), '--format', 'json', '--state', `file:${join(dir, 'state.json')}`], env);
    expect(r.bundled.code).toBe(0);
    expect(JSON.parse(r.bundled.stdout)).toEqual(JSON.parse(r.unbundled.stdout));
  });

  it('serve: the reference server (SQLite, loaded at run time) starts, answers and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BUNDLE, 'serve', '--port', '0', '--data', join(dir, 'serve.sqlite')], {
      cwd: dir, env: { PATH: process.env.PATH, MENUCTL_JWT_SECRET: 'x'.repeat(32) }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout! }).once('line', (line) => {
        const m = /^menuctl api listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (m) done(m[1]!);
        else fail(new Error(`unexpected first line: ${line}`));
      });
      child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
    });
    const res = await fetch(`${url}/api/actions`);
    expect(res.status).toBe(401);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
