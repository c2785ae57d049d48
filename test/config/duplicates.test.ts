// Identity keys and pins are unique per kind: the one place this rule lives is
// config/checks/duplicates.ts (the planner relies on it and no longer repeats it).
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';

const load = (text: string) => loadSources([{ file: 'm.yaml', text }], { env: {}, cwd: '/' });
const action = (name: string, extra = '') =>
  `  - name: ${name}\n    root_code: "*144#"\n    transport_type: ussd\n    operators: [2172]\n    steps: [{ press: 1 }]\n${extra}`;
const codes = (text: string) => load(text).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.loc?.line}:${d.code}:${d.address}`);

describe('identity uniqueness in the config', () => {
  it('the same id pinned by two actions is an error at the second pin', () => {
    expect(codes(`version: 1\nactions:\n${action('A', '    id: a1\n')}${action('B', '    id: a1\n')}`))
      .toEqual(['14:semantic.duplicate-id:action["B"]']);
  });

  it('the same id pinned by two parsers, even of different actions, is an error', () => {
    const parser = (c: string) => `    parsers:\n      - { category: ${c}, status: succeeded, regex: 'x.*', id: p9 }\n`;
    expect(codes(`version: 1\nactions:\n${action('A', parser('a'))}${action('B', parser('b'))}`))
      .toEqual(['16:semantic.duplicate-id:action["B"].parser["b"]']);
  });

  it('the same app id pinned twice, and one package name twice, are errors', () => {
    const app = (n: string, pkg: string) => `  - { name: ${n}, package_name: ${pkg}, id: "7" }\n`;
    expect(codes(`version: 1\napps:\n${app('One', 'com.a')}${app('Two', 'com.a')}`))
      .toEqual(['4:semantic.duplicate-app:app["com.a"]', '4:semantic.duplicate-id:app["com.a"]']);
  });
});
