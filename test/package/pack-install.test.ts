// The package as a user gets it: `npm pack`, install the tarball into an empty directory, and run
// the installed CLI from there. Nothing native is built (SQLite is an optional peer, needed only
// by serve/demo, which then say in one line what to install); validate, test, plan and apply work
// on the shipped examples against the real reference server; the tarball carries its LICENSE,
// the docs the README links to, and no source maps pointing at sources it does not ship.
// Needs the npm registry or a warm npm cache (--prefer-offline) and `npm run build` first.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const INSTALL_TIMEOUT = 240_000;
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

interface Result { code: number; stdout: string; stderr: string }

async function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  try {
    const r = await run(cmd, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, timeout: INSTALL_TIMEOUT, maxBuffer: 16 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

let dir: string;
let tarball: string;
let files: string[];
let app: string;
let server: TestServer;
const menuctl = (args: string[], env: Record<string, string> = {}) =>
  sh(join(app, 'node_modules/.bin/menuctl'), args, app, env);
const pkg = () => join(app, 'node_modules/menuctl');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'menuctl-pack-'));
  // --ignore-scripts: `prepare` would rebuild dist/ under the other tests' feet; pretest built it.
  const packed = await sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = join(dir, info.filename);
  files = info.files.map((f) => f.path);
  app = join(dir, 'app');
  rmSync(app, { recursive: true, force: true });
  await sh('mkdir', ['-p', app], dir);
  writeFileSync(join(app, 'package.json'), '{ "name": "menus", "private": true }\n');
  const installed = await sh('npm', ['install', tarball, ...NPM_QUIET], app);
  expect(installed.code, installed.stderr).toBe(0);
  server = await startTestServer();
}, INSTALL_TIMEOUT);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('carries LICENSE, README and every file the README links to', () => {
    expect(files).toContain('LICENSE');
    expect(files).toContain('README.md');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(3);
    const missing = links.filter((l) => !files.some((f) => f === l || f.startsWith(l.replace(/\/?$/, '/'))));
    expect(missing).toEqual([]);
  });

  it('ships no source map and no TypeScript source or test', () => {
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    const mapRefs = files.filter((f) => f.endsWith('.js') && readFileSync(join(pkg(), f), 'utf8').includes('sourceMappingURL'));
    expect(mapRefs).toEqual([]);
  });

  it('asks for a Node.js every installed dependency supports (engines is honest)', () => {
    type V = [number, number, number];
    const version = (text: string): V => {
      const [a = 0, b = 0, c = 0] = text.replace(/^v/, '').split('.').map((n) => (n === 'x' || n === '*' ? 0 : Number(n)));
      return [a, b, c];
    };
    const cmp = (a: V, b: V) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    // One comparator of a node-semver range, enough for the `engines` fields npm packages write.
    const holds = (v: V, comparator: string): boolean => {
      const m = /^(>=|<=|>|<|\^|~|=)?\s*v?(\d+(?:\.(?:\d+|x|\*))?(?:\.(?:\d+|x|\*))?)$/.exec(comparator);
      if (!m) throw new Error(`engines comparator ${JSON.stringify(comparator)} is not understood here`);
      const op = m[1] ?? '=';
      const w = version(m[2]!);
      const parts = m[2]!.split('.').length;
      switch (op) {
        case '>=': return cmp(v, w) >= 0;
        case '>': return cmp(v, w) > 0;
        case '<=': return cmp(v, w) <= 0;
        case '<': return cmp(v, w) < 0;
        case '^': return cmp(v, w) >= 0 && (w[0] > 0 ? v[0] === w[0] : v[0] === 0 && v[1] === w[1]);
        case '~': return cmp(v, w) >= 0 && v[0] === w[0] && (parts === 1 || v[1] === w[1]);
        default: return v[0] === w[0] && (parts < 2 || v[1] === w[1]) && (parts < 3 || v[2] === w[2]);
      }
    };
    const satisfies = (v: V, range: string) => range.split('||').some((alt) =>
      alt.trim().replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1').split(/\s+/).filter(Boolean).every((c) => holds(v, c)));
    const ours = /^>=\s*(\S+)$/.exec((JSON.parse(readFileSync(join(pkg(), 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node.trim());
    expect(ours, 'our engines.node is one ">=x.y.z" bound').not.toBeNull();
    const minimum = version(ours![1]!);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
    const demanding = Object.entries(lock.packages)
      .filter(([path, p]) => path.startsWith('node_modules/') && p.engines?.node && !satisfies(minimum, p.engines.node))
      .map(([path, p]) => `${path} needs ${p.engines!.node}`);
    expect(demanding).toEqual([]);
  });

  it('installs without SQLite and without building anything native', () => {
    expect(existsSync(join(app, 'node_modules/better-sqlite3'))).toBe(false);
    const native = readdirSync(join(app, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.node'));
    expect(native).toEqual([]);
  });
});

describe('the install the docs show (issue 34 item 4)', () => {
  const shellLines = (file: string) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));

  it('no README command runs `npx menuctl`, which outside a clone fetches a package by name from a registry', () => {
    expect(shellLines('README.md').filter((l) => /\bnpx menuctl\b/.test(l))).toEqual([]);
  });

  it('the README\'s install line, run as written (into a prefix), gives a `menuctl` that runs the README\'s offline commands', async () => {
    const line = shellLines('README.md').find((l) => l.startsWith('npm install --global '));
    expect(line).toBeDefined();
    const words = line!.replace(/\s+#.*$/, '').split(/\s+/);
    // The file `npm pack` makes now: the docs name the version package.json has.
    expect(words.at(-1)).toBe(`./${tarball.slice(dir.length + 1)}`);
    expect(readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')).toContain(`\`${words.join(' ')}\``);
    const prefix = join(dir, 'global');
    const installed = await sh(words[0]!, [...words.slice(1), '--prefix', prefix, ...NPM_QUIET], dir);
    expect(installed.code, installed.stderr).toBe(0);
    const bin = join(prefix, 'bin/menuctl');
    expect((await sh(bin, ['--version'], dir)).stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    const examples = join(prefix, 'lib/node_modules/menuctl/examples');
    for (const command of ['validate', 'test', 'analyze']) {
      const r = await sh(bin, [command, examples], dir);
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
    }
  }, INSTALL_TIMEOUT);
});

describe('the installed CLI', () => {
  it('validates and tests the shipped examples', async () => {
    const examples = join(pkg(), 'examples');
    const v = await menuctl(['validate', examples]);
    expect(v.code, v.stderr).toBe(0);
    const t = await menuctl(['test', examples]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/\d+ passed, 0 failed/);
  });

  it('plans and applies the shipped examples against the reference server', async () => {
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token };
    const examples = join(pkg(), 'examples');
    const plan = await menuctl(['plan', examples, '--detailed-exitcode'], env);
    expect(plan.code, plan.stderr).toBe(2);
    const apply = await menuctl(['apply', examples, '--yes', '--secrets-file', join(dir, 'secrets.json')], env);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await menuctl(['plan', examples, '--detailed-exitcode'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it.each([['serve', '--port', '0'], ['demo']])('%s says in one line how to get SQLite, and creates nothing', async (...args) => {
    const before = readdirSync(app).sort();
    const r = await menuctl(args);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('npm install better-sqlite3');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(app).sort()).toEqual(before);
  });

  it('serve with better-sqlite3 installed but not built says to rebuild it', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['better-sqlite3']!;
    const added = await sh('npm', ['install', `better-sqlite3@${version}`, '--ignore-scripts', ...NPM_QUIET], app);
    expect(added.code, added.stderr).toBe(0);
    const r = await menuctl(['serve', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('npm rebuild better-sqlite3');
    expect(r.stderr).not.toContain('Could not locate the bindings file');
  }, INSTALL_TIMEOUT);
});
