// `menuctl plan --format markdown` against the reference server (real HTTP, SQLite, JWT): each
// changed action's flowchart is drawn from the config, parsers the plan does not touch included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from './helpers.js';

let server: TestServer;
const tmp = tempDir('menuctl-plan-flow-');
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); tmp.remove(); });

const config = (regex: string) => `version: 1
actions:
  - name: Balance
    root_code: "*334#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 5
        expect: My Account
      - pin
    parsers:
      - category: received
        status: pending
        regex: '${regex}'
      - category: balance
        status: succeeded
        target_type: sms
        sender: MPESA
        regex: '.*balance.*'
`;

describe('plan markdown flowcharts', () => {
  it('shows the flowchart of an action whose parser changes, with all its parsers', async () => {
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token };
    const file = tmp.write('menuctl.yaml', config('.*received.*'));
    expect((await runCli(['apply', file, '--yes'], { env })).code).toBe(0);
    tmp.write('menuctl.yaml', config('.*has been received.*'));
    const r = await runCli(['plan', file, '--format', 'markdown'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<summary>flowchart of <code>action["Balance"]</code></summary>');
    expect(r.stdout).toContain('  s1["1. press 5<br/>#8220;My Account#8221;"]');
    expect(r.stdout).toContain('  reply -. "sms from MPESA" .-> p1');
    expect(r.stdout).not.toContain('parsers this plan changes');
  });
});
