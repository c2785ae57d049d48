// menuctl sessions import FILE PATH...: with the config, the session's variables come from the
// values entered at the action's variable and select steps, so Hover's documented webhook sample
// runs under `menuctl test` as imported (issue 26 item 3). Also SMS-only and category-null records.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-import-config-');
afterAll(() => tmp.remove());

/**
 * The transaction of Hover's webhook documentation (hover-docs, webhooks.md "Payload"): a failed
 * Send Money, low balance, told by SMS; input_extras empty, the values only in values_entered.
 */
const documented = {
  meta: { secret: 'bb98a2d7cc8f51037c9c5cd05376ddf5' },
  data: {
    id: '1111e38e-6907-4ee4-8289-af2dd99b1111',
    type: 'transaction',
    attributes: {
      uuid: '1111e38e-6907-4ee4-8289-af2dd99b1111', device_id: '5555555555', sdk_version: '1.2.3',
      action_public_id: 'c68ba1f5', status: 'failed', category: 'low-balance', user_message: '',
      operator_name: 'Safaricom Ltd.', initiated_at: '2019-08-08T18:50:24Z', updated_at: '2019-08-09T01:48:18Z',
      environment: 'debug', input_extras: {}, custom_parser_ids: [444444], parsed_variables: {},
      action_name: 'Send Money', operator: ['Safaricom Ltd.'], country: 'Kenya',
      session_messages: [
        '1. Send Money 2. Withdraw Cash 3. Buy Airtime 4. Loans and Savings 5. Lipa na M-PESA 6. My Account',
        'Enter phone no.', 'Enter Amount', 'Enter M-PESA PIN', 'Sent, wait for reply',
      ],
      values_entered: ['1', '055555555', '100', '(pin)'],
      sms_hits: [{ message: 'Insufficient balance, please top up and try again.', sender: 'MPESA', timestamp: '2019-08-09T18:51:10Z' }],
      sms_misses: [{ message: 'to win bonga points!', sender: 'MPESA', timestamp: '2019-08-09T10:50:43Z' }],
    },
  },
};

const config = (sessions = '') => `version: 1
actions:
  - name: Send Money
    root_code: "*334#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 1
      - variable: phone
      - variable: amount
      - pin
    parsers:
      - category: low-balance
        status: failed
        target_type: sms
        sender: MPESA
        regex: '.*Insufficient balance.*'
${sessions}`;

/** The imported YAML (a list) indented under the action's `sessions:`. */
const under = (key: string, yaml: string) => `    ${key}:\n${yaml.split('\n').map((l) => (l ? `      ${l}` : l)).join('\n')}`;

describe('sessions import with the config', () => {
  it("Hover's documented webhook sample, imported with its config, passes menuctl test (scrubbed)", async () => {
    const cfg = tmp.write('menuctl.yaml', config());
    const r = await runCli(['sessions', 'import', tmp.write('documented.json', JSON.stringify(documented)), cfg]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/variables:\n\s+phone: "?055000000"?\n\s+amount: "100"/);
    expect(r.stdout).not.toContain('055555555');
    expect(r.stdout).not.toContain('bb98a2d7');
    const withSession = tmp.write('with-session.yaml', config(under('sessions', r.stdout)));
    const t = await runCli(['test', withSession]);
    expect(t.stdout + t.stderr).not.toMatch(/gives no value/);
    expect(t.code, t.stdout + t.stderr).toBe(0);
  });

  it('without the config, as before: the values stay in a comment', async () => {
    const r = await runCli(['sessions', 'import', tmp.write('documented-alone.json', JSON.stringify(documented))]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/variables:\n\s+phone/);
    expect(r.stdout).toContain('# Values entered: 1, 055000000, 100, (pin)');
  });

  it('a select step takes the text of the option the record chose, from the scrubbed screen', async () => {
    const cfg = tmp.write('bundle.yaml', `version: 1
actions:
  - name: Buy bundle
    root_code: "*544#"
    transport_type: ussd
    operators: [2172]
    steps:
      - select: bundle
      - pin
    parsers:
      - { category: bought, status: succeeded, regex: 'You have bought .*' }
`);
    const record = {
      action_name: 'Buy bundle', status: 'succeeded', category: 'bought',
      session_messages: ['Bundles\n1. Daily 500MB\n2. Weekly 2GB', 'Enter PIN', 'You have bought Weekly 2GB'],
      values_entered: ['2', '4321'],
    };
    const r = await runCli(['sessions', 'import', tmp.write('bundle.json', JSON.stringify(record)), cfg]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/variables:\n\s+bundle: Weekly 2GB/);
    expect(r.stdout).not.toContain('4321');
    const t = await runCli(['test', tmp.write('bundle-with.yaml', readFileSync(cfg, 'utf8') + under('sessions', r.stdout))]);
    expect(t.code, t.stdout + t.stderr).toBe(0);
  });

  it('an SMS-only transaction (session_messages: []) imports as a fixture for tests:, which passes', async () => {
    const record = { ...documented.data.attributes, session_messages: [], values_entered: [] };
    const r = await runCli(['sessions', 'import', tmp.write('sms-only.json', JSON.stringify(record)), tmp.write('sms-cfg.yaml', config())]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("paste this under the action's `tests:`");
    expect(r.stdout).toContain('SMS only');
    expect(r.stdout + r.stderr).not.toMatch(/missing/);
    const t = await runCli(['test', tmp.write('sms-with.yaml', config(under('tests', r.stdout)))]);
    expect(t.code, t.stdout + t.stderr).toBe(0);
  });

  it('a record with neither screens nor SMS says the list is empty, not missing', async () => {
    const r = await runCli(['sessions', 'import', tmp.write('empty.json', JSON.stringify({ status: 'failed', session_messages: [] }))]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/"session_messages" is empty and there are no SMS/);
  });

  it('a failure with category: null keeps failed in its name and says why expect is none', async () => {
    const record = {
      action_name: 'Send Money', status: 'failed', category: null, initiated_at: '2019-08-08T18:50:24Z',
      session_messages: ['1. Send Money 6. My Account', 'Enter phone no.', 'Enter Amount', 'Enter M-PESA PIN', 'Connection problem or invalid MMI code'],
      values_entered: ['1', '0712345678', '100', '(pin)'],
    };
    const r = await runCli(['sessions', 'import', tmp.write('null-cat.json', JSON.stringify(record)), tmp.write('null-cfg.yaml', config())]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('- name: imported 2019-08-08 failed no category');
    expect(r.stdout).toMatch(/# Hover recorded this transaction as failed with no category/);
    expect(r.stdout).toContain('expect: none');
    const t = await runCli(['test', tmp.write('null-with.yaml', config(under('sessions', r.stdout)))]);
    expect(t.code, t.stdout + t.stderr).toBe(0);
  });
});
