// Pictures (issue 13 item 5): menuctl docs writes a page per config file with a Mermaid flowchart
// per action, and the plan's markdown carries the flowchart of each changed action.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { mermaidText, renderFlowchart } from '../../src/report/flowchart.js';
import { renderPlanMarkdown } from '../../src/report/plan-markdown.js';
import type { DesiredAction } from '../../src/model/types.js';
import { createParser, plan } from '../apply/plan-data.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-docs-');
afterAll(() => tmp.remove());

const action: DesiredAction = {
  name: 'Bundle "plus"',
  root_code: '*175#',
  transport_type: 'ussd',
  operators: [{ ref: 2642 }],
  steps: [
    { kind: 'press', value: '1', expect: 'Data <Bundles>' },
    { kind: 'select', name: 'bundle' },
    { kind: 'pin' },
  ],
  parsers: [
    { category: 'bought', status: 'succeeded', target_type: 'ussd', sender: null, regex: '.*bought.*', user_message: '' },
    { category: 'confirmed', status: 'succeeded', target_type: 'sms', sender: 'AIRTEL', regex: '.*', user_message: '' },
  ],
  tests: [],
};

describe('renderFlowchart', () => {
  it('draws dial code -> each step with its expected text -> the outcome of each parser', () => {
    const chart = renderFlowchart(action, action.parsers);
    expect(chart.split('\n')).toEqual(expect.arrayContaining([
      '```mermaid',
      'flowchart TD',
      '  start(["dial *175#35;"])',
      '  s1["1. press 1<br/>#8220;Data #lt;Bundles#gt;#8221;"]',
      '  start --> s1',
      '  s2["2. choose the option matching bundle"]',
      '  s3["3. PIN"]',
      '  s3 --> reply',
      '  p0["bought<br/>succeeded"]:::succeeded',
      '  reply --> p0',
      '  reply -. "sms from AIRTEL" .-> p1',
    ]));
  });

  it('escapes what would end a label or start an entity', () => {
    expect(mermaidText('say "hi" <b> #1\nnext')).toBe('say #quot;hi#quot; #lt;b#gt; #35;1<br/>next');
  });
});

describe('menuctl docs', () => {
  it('writes one page per config file with a flowchart per action', async () => {
    const out = join(tmp.dir, 'pages');
    const r = await runCli(['docs', 'examples', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote 2 page(s) to');
    expect(readdirSync(out).sort()).toEqual(['mpesa-kenya.md', 'uganda-momo.md']);
    const page = readFileSync(join(out, 'uganda-momo.md'), 'utf8');
    expect(page.match(/^## /gm)).toHaveLength(3);
    expect(page.match(/^```mermaid$/gm)).toHaveLength(3);
    expect(page).toContain('## Airtel data bundle');
    expect(page).toContain("| insufficient-float | ussd | failed | `Y'ello\\.\\s*Transaction failed: insufficient (balance\\|funds)\\b.*` |");
  });

  it('draws the environment chosen with --env (or MENUCTL_ENV), and asks for one when the config defines several', async () => {
    const file = tmp.write('envs.yaml', [
      'version: 1',
      'environments:',
      '  staging: { organization_id: 81, variables: { CODE: "*144#" } }',
      '  production: { organization_id: 82, variables: { CODE: "*145#" } }',
      'actions:',
      '  - { name: Check balance, root_code: "${CODE}", transport_type: ussd, operators: [2172], steps: [{ press: 1 }] }',
      '  - { name: Beta, environments: [staging], root_code: "*9#", transport_type: ussd, operators: [2172] }',
      '',
    ].join('\n'));
    const none = join(tmp.dir, 'env-none');
    const refused = await runCli(['docs', file, '--out', none]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('`staging`, `production`');
    expect(refused.stderr).toContain('--env NAME');
    expect(() => readdirSync(none)).toThrow();
    const prod = join(tmp.dir, 'env-production');
    expect((await runCli(['docs', file, '--out', prod, '--env', 'production'])).code).toBe(0);
    const page = readFileSync(join(prod, 'envs.md'), 'utf8');
    expect(page).toContain('*145#');
    expect(page).not.toContain('*144#');
    expect(page).not.toContain('## Beta');
    const staging = join(tmp.dir, 'env-staging');
    expect((await runCli(['docs', file, '--out', staging], { env: { MENUCTL_ENV: 'staging' } })).code).toBe(0);
    expect(readFileSync(join(staging, 'envs.md'), 'utf8')).toContain('## Beta');
  });

  it('writes nothing for an invalid config and says why', async () => {
    const out = join(tmp.dir, 'none');
    const r = await runCli(['docs', tmp.write('bad.yaml', 'version: 2\n'), '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no pages written');
    expect(() => readdirSync(out)).toThrow();
  });
});

describe('plan markdown flowcharts', () => {
  it('adds a collapsed flowchart for each action whose parsers change, drawn from the config', () => {
    const md = renderPlanMarkdown(plan([createParser(action.name, 'bought', 'a1')]), { actions: [action] });
    // A backslash before punctuation is an entity: GitHub would eat it as a markdown escape.
    expect(md).toContain('<details>\n<summary>flowchart of <code>action["Bundle &#92;"plus&#92;""]</code></summary>\n\n```mermaid\nflowchart TD');
    expect(md).toContain('reply -. "sms from AIRTEL" .-> p1');
  });

  it('leaves flowcharts out before it leaves out a change', () => {
    const p = plan([createParser(action.name, 'bought', 'a1')]);
    const full = renderPlanMarkdown(p, { actions: [action] });
    const tight = renderPlanMarkdown(p, { actions: [action], maxChars: full.length - 10 });
    expect(tight).not.toContain('```mermaid');
    expect(tight).not.toContain('left out');
    expect(tight).toContain('```diff');
  });
});
