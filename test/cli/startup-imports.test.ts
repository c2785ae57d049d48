// What `menuctl --help` and a command's `--help` load: flags only, no handler (issue 17, item 2).
// Each case runs the built CLI (dist/, `npm run build` first) in a fresh Node process whose module
// hooks report every module it resolves, so the test sees the real import graph.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `menuctl ...argv` in-process in a child and resolves to the module URLs it loaded. */
function modulesLoadedBy(argv: string[]): Promise<string[]> {
  const hooks = `data:text/javascript,${encodeURIComponent(
    'let port; export function initialize(d) { port = d.port; } '
    + 'export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }',
  )}`;
  const script = `
    import { register } from 'node:module';
    const { port1, port2 } = new MessageChannel();
    const seen = [];
    port1.on('message', (u) => seen.push(u));
    register(${JSON.stringify(hooks)}, { data: { port: port2 }, transferList: [port2] });
    const { run } = await import('./dist/cli/main.js');
    const sink = { write() { return true; } };
    await run(${JSON.stringify(argv)}, { stdout: sink, stderr: sink, env: {}, cwd: process.cwd() });
    await new Promise((r) => setTimeout(r, 100));
    port1.close();
    process.stdout.write(JSON.stringify(seen));
  `;
  return new Promise((done, fail) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${err.message}\n${stderr}`));
      else done(JSON.parse(stdout) as string[]);
    });
  });
}

// What the commands run with: every command's handler, the offline ones' included, is imported
// only when it runs (cli/*-command.ts hold the flags).
const HANDLER = /\/node_modules\/undici\/|\/dist\/api\/client\.js|\/dist\/cli\/pipeline\.js|\/dist\/plan\/build-plan\.js|\/dist\/engine\//;
const CONFIG_LOADER = /\/dist\/config\/load\.js/;

describe('start-up: help loads flags, not handlers', () => {
  it.each([
    [['--help']],
    [['plan', '--help']],
    [['apply', '--help']],
    [['drift', '--help']],
    [['export', '--help']],
    [['operators', '--help']],
    [['validate', '--help']],
    [['test', '--help']],
    [['analyze', '--help']],
    [['docs', '--help']],
    [['sessions', 'import', '--help']],
  ])('menuctl %j loads no API client, config loader or planner', async (argv) => {
    const loaded = await modulesLoadedBy(argv);
    expect(loaded.some((u) => u.endsWith('/dist/cli/program.js'))).toBe(true);
    expect(loaded.filter((u) => HANDLER.test(u))).toEqual([]);
    expect(loaded.filter((u) => CONFIG_LOADER.test(u))).toEqual([]);
  }, 30_000);

  it('running a command does load its handler (the hooks see the whole graph)', async () => {
    const loaded = await modulesLoadedBy(['plan', '--api-url', 'http://127.0.0.1:9', 'no-such-config.yaml']);
    expect(loaded.some((u) => u.endsWith('/dist/cli/pipeline.js'))).toBe(true);
  }, 30_000);

  it('running an offline command does load the config loader', async () => {
    const loaded = await modulesLoadedBy(['validate', 'no-such-config.yaml']);
    expect(loaded.filter((u) => CONFIG_LOADER.test(u))).toHaveLength(1);
  }, 30_000);
});
