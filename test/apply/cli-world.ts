// Helpers for running `menuctl apply` in-process (runCli) against a reference server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '../helpers/server.js';
import { OPERATOR_ID } from './world.js';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'menuctl-apply-'));
}

export function envFor(server: TestServer, token = server.token): Record<string, string> {
  return { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
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
