// Helpers for running `menuctl apply` in-process (runCli) against a reference server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { clientFor, OPERATOR_ID } from './world.js';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'menuctl-apply-'));
}

export function envFor(server: TestServer, token = server.token): Record<string, string> {
  return { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
}

/** A new organization `org` on `server` (its own token) and a working directory: `cli` runs menuctl there, `write` sets its menuctl.yaml. */
export async function workspaceOn(server: TestServer, org: number): Promise<{ dir: string; token: string; cli(args: string[]): Promise<CliResult>; write(yaml: string): void }> {
  const dir = tempDir();
  const token = await server.mintToken(org);
  return {
    dir,
    token,
    cli: (args) => runCli(args, { env: envFor(server, token), cwd: dir }),
    write: (yaml) => writeFileSync(join(dir, 'menuctl.yaml'), yaml),
  };
}

export interface YamlAction {
  name: string;
  parsers?: string[];
  rootCode?: string;
  extra?: string; // raw YAML lines for the action, indented by 4
}

/** A version 1 config as YAML text. */
export function configYaml(actions: YamlAction[], options: { org?: number; apps?: string[] } = {}): string {
  const lines = ['version: 1'];
  if (options.org !== undefined) lines.push(`organization_id: ${options.org}`);
  lines.push(actions.length ? 'actions:' : 'actions: []');
  for (const a of actions) {
    lines.push(`  - name: ${JSON.stringify(a.name)}`, `    root_code: ${JSON.stringify(a.rootCode ?? '*144#')}`, '    transport_type: ussd', `    operators: [${OPERATOR_ID}]`,
      '    steps:', '      - press: 1', '      - pin');
    if (a.extra) lines.push(a.extra);
    if (a.parsers?.length) {
      lines.push('    parsers:');
      for (const p of a.parsers) lines.push(`      - category: ${JSON.stringify(p)}`, '        status: succeeded', `        regex: '.*${p}.*'`);
    }
  }
  if (options.apps?.length) {
    lines.push('apps:');
    for (const pkg of options.apps) lines.push(`  - name: App ${pkg}`, `    package_name: ${pkg}`, '    webhook_url: https://hooks.example.com/x');
  }
  return lines.join('\n') + '\n';
}

export function writeConfig(dir: string, yaml: string, name = 'menuctl.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

/**
 * One reference server per test file, and per test a fresh organization (its own token and
 * client) and working directory; `cli` runs menuctl there with that token.
 */
export interface CliWorld {
  server: TestServer;
  token: string;
  client: ApiClient;
  dir: string;
  cli(args: string[]): Promise<CliResult>;
}

export function useCliWorld(firstOrg: number): CliWorld {
  let org = firstOrg;
  const world = {
    cli: (args: string[]) => runCli(args, { env: envFor(world.server, world.token), cwd: world.dir }),
  } as CliWorld;
  beforeAll(async () => { world.server = await startTestServer(); });
  afterAll(async () => { await world.server.close(); });
  beforeEach(async () => {
    org++;
    world.token = await world.server.mintToken(org);
    world.client = clientFor(world.server, { token: world.token });
    world.dir = tempDir();
  });
  return world;
}
