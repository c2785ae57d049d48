// menuctl sessions import: a Hover webhook record becomes a session; personal data never leaks.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { scrubText, scrubValue } from '../../src/sessions/scrub.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-import-');
afterAll(() => tmp.remove());

const SECRET = 'bb98a2d7cc8f51037c9c5cd05376ddf5';
const DEVICE = '5555555555';
/** Hover's documented webhook body, with a successful send-money transaction full of personal data. */
const webhook = {
  meta: { secret: SECRET },
  data: {
    id: '1111e38e-6907-4ee4-8289-af2dd99b1111',
    type: 'transaction',
    attributes: {
      uuid: '1111e38e-6907-4ee4-8289-af2dd99b1111',
      device_id: DEVICE,
      action_public_id: 'c68ba1f5',
      status: 'succeeded',
      category: 'sent',
      action_name: 'Send Money',
      initiated_at: '2019-08-08T18:50:24Z',
      input_extras: { phone: '0712345678', amount: '100' },
      parsed_variables: { name: 'JOHN KAMAU', amount: '100.00' },
      session_messages: [
        '1. Send Money\n2. Withdraw Cash\n6. My Account',
        'Enter phone no.',
        'Enter Amount',
        'Send Ksh100 to JOHN KAMAU 0712345678? Enter M-PESA PIN',
        'Dear Mary Wanjiku, your request has been received',
      ],
      values_entered: ['1', '0712345678', '100', '(pin)'],
      sms_hits: [{ message: 'QAB1CD2EF3 Confirmed. Ksh100.00 sent to JOHN KAMAU 254712345678 on 8/8/19. Contact: john.kamau@example.org', sender: 'MPESA', timestamp: '2019-08-09T18:51:10Z' }],
      sms_misses: [{ message: 'to win bonga points!', sender: 'MPESA' }],
    },
    relationships: { device: { data: { id: DEVICE, type: 'device' } } },
  },
};
const PERSONAL = ['0712345678', '254712345678', '712345678', 'JOHN', 'KAMAU', 'Mary', 'Wanjiku', 'john.kamau', SECRET, DEVICE, '1111e38e'];

describe('menuctl sessions import', () => {
  it('turns the webhook body into a session with screens, variables, SMS and the recorded outcome', async () => {
    const file = tmp.write('record.json', JSON.stringify(webhook));
    const r = await runCli(['sessions', 'import', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Action "Send Money": paste this under the action\'s `sessions:`');
    expect(r.stdout).toContain('- name: imported 2019-08-08 succeeded sent');
    expect(r.stdout).toContain('# 1 SMS that no parser matched (sms_misses) were left out.');
    expect(r.stdout).toContain('Ksh100.00 sent to JANE DOE 254000000000');
    expect(r.stdout).toContain('phone: "0710000000"');
    expect(r.stdout).toMatch(/category: sent\n\s+status: succeeded/);
  });

  it('leaks no phone number, name, e-mail, secret or device id', async () => {
    const r = await runCli(['sessions', 'import', tmp.write('leak.json', JSON.stringify(webhook))]);
    for (const p of PERSONAL) expect(r.stdout, p).not.toContain(p);
  });

  it('writes a session that menuctl test runs against the action', async () => {
    const out = `${tmp.dir}/imported.yaml`;
    const r = await runCli(['sessions', 'import', tmp.write('rt.json', JSON.stringify(webhook)), '--name', 'field', '--out', out]);
    expect(r.code).toBe(0);
    const session = readFileSync(out, 'utf8').replace(/^(?!#)/gm, '      ');
    const config = tmp.write('send.yaml', `version: 1
actions:
  - name: Send Money
    root_code: "*334#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 1
        expect: Send Money
      - variable: phone
      - variable: amount
      - pin
    parsers:
      - category: received
        status: pending
        regex: '.*request has been received.*'
      - category: sent
        status: succeeded
        target_type: sms
        sender: MPESA
        regex: '(?<code>[A-Z0-9]{10}) Confirmed\\. Ksh(?<amount>[\\d,.]+) sent to (?<name>.+?) \\d+ on .*'
    sessions:
${session}`);
    const t = await runCli(['test', config, '--transcript']);
    expect(t.stdout).toContain('✓ session "field"');
    expect(t.stdout).toContain('→ 0710000000');
    expect(t.stdout).toContain('= outcome: sent (succeeded) code="QAB1CD2EF3" amount="100.00" name="JANE DOE"');
    expect(t.code).toBe(0);
  });

  it('accepts the attributes object alone, a list, and other field names', async () => {
    const alt = { action_name: 'X', status: 'failed', category: 'low', ussd_messages: ['Menu\n1. Pay', 'Low balance'], smses: [{ msg: 'Failed', from: 'MPESA' }] };
    const r = await runCli(['sessions', 'import', tmp.write('alt.json', JSON.stringify([alt, { attributes: alt }]))]);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/- name: imported failed low/g)).toHaveLength(2);
    expect(r.stdout).toContain('- sender: MPESA\n      message: Failed');
  });

  it('reads a body saved with a byte order mark (Windows tools write one)', async () => {
    const r = await runCli(['sessions', 'import', tmp.write('bom.json', `\uFEFF${JSON.stringify(webhook)}`)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Enter phone no.');
  });

  it('a pending transaction without category expects none', async () => {
    const r = await runCli(['sessions', 'import', tmp.write('pending.json', JSON.stringify({ status: 'pending', session_messages: ['Hi'] }))]);
    expect(r.stdout).toContain('expect: none');
  });

  it('says what is wrong with a file that is not JSON or holds no transaction', async () => {
    const bad = await runCli(['sessions', 'import', tmp.write('bad.json', '{ "data": ')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: .*bad\.json: not JSON \(.*\)\. Save the webhook's request body as it was received\.\n$/);
    const empty = await runCli(['sessions', 'import', tmp.write('empty.json', '{ "data": { "attributes": { "status": "failed" } } }')]);
    expect(empty.stderr).toContain('transaction 1: no USSD screens and no SMS: expected one of "session_messages", "ussd_messages", "messages" as a list of strings, or SMS in "sms_hits".');
    const missing = await runCli(['sessions', 'import', `${tmp.dir}/nope.json`]);
    expect(missing.stderr).toContain('nope.json: cannot read it (no such file).');
  });
});

describe('sessions import leaks nothing found in review', () => {
  it('a JSON error never quotes the input, even when the excerpt holds quotes', async () => {
    for (const [name, text] of [['q1.json', '["0712345678", +1]'], ['q2.json', '{"a": +254712345678}']]) {
      const r = await runCli(['sessions', 'import', tmp.write(name!, text!)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not JSON/);
      expect(r.stderr).not.toMatch(/0712|2547/);
    }
  });

  it('masks what answered a secret-code prompt, a `code` value, and scrubs the action name', async () => {
    const record = {
      action_name: 'Send 0712345678', status: 'succeeded', category: 'sent',
      session_messages: ['Menu\n1. Send', 'Enter your secret code', 'Ingiza nambari ya siri', 'Enter MPIN', 'Digite a senha', 'Introduza o código secreto', 'Ingrese su clave', 'أدخل الرقم السري', 'Done'],
      values_entered: ['1', '9876', '1357', '2468', '8642', '7531', '1928', '٣٨٤٧'],
      input_extras: { code: '4321' },
    };
    const r = await runCli(['sessions', 'import', tmp.write('secret.json', JSON.stringify(record))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/9876|1357|2468|4321|8642|7531|1928|٣٨٤٧|0712345678/);
  });

  it('masks what answered the other ways Arabic and Portuguese menus ask for the PIN', async () => {
    // "your secret number", "secret number" without the article, سرى as Egyptian menus spell it,
    // and European/African Portuguese "palavra-passe".
    const prompts = ['أدخل رقمك السري', 'ادخل الرقم السرى', 'أدخل رقم سري', 'ادخل رمزك السري', 'Introduza a palavra-passe'];
    const typed = ['٤٧١٩', '5820', '6931', '7042', '8153'];
    const record = {
      status: 'succeeded', category: 'sent',
      session_messages: ['Menu\n1. Send', ...prompts, 'Done'], values_entered: ['1', ...typed],
    };
    const r = await runCli(['sessions', 'import', tmp.write('secret-ar.json', JSON.stringify(record))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Values entered: 1, (pin), (pin), (pin), (pin), (pin) ');
    for (const pin of typed) expect(r.stdout).not.toContain(pin);
  });
});

describe('sessions import keeps what the parser captured from the messages', () => {
  it('a parsed `code` is the SMS\'s transaction code, kept as the SMS keeps it; an entered `code` is masked', async () => {
    const record = {
      action_name: 'M-PESA balance', status: 'succeeded', category: 'balance',
      session_messages: ['1. Send Money\n6. My Account', 'Enter M-PESA PIN'],
      values_entered: ['6', '(pin)'],
      input_extras: { code: '4321' },
      parsed_variables: { code: 'QAB1CD2EF3', balance: '1,234.00' },
      sms_hits: [{ message: 'QAB1CD2EF3 Confirmed. Your account balance was: M-PESA Account : Ksh1,234.00', sender: 'MPESA' }],
    };
    const r = await runCli(['sessions', 'import', tmp.write('parsed-code.json', JSON.stringify(record))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/message: "QAB1CD2EF3 Confirmed\./);
    expect(r.stdout).toMatch(/expect:[\s\S]*variables:\s+code: QAB1CD2EF3\s+balance: 1,234.00/);
    expect(r.stdout).not.toContain('4321');
  });
});

describe('scrubValue', () => {
  it('replaces a value under any key that the text rules found as a name in the same record; keeps the rest as the messages keep it', () => {
    const names = new Set<string>();
    expect(scrubText('Send Ksh100 to JOHN KAMAU 0712345678?', [], names)).toBe('Send Ksh100 to JANE DOE 0710000000?');
    expect([...names]).toEqual(['JOHN KAMAU']);
    expect(scrubValue('to', 'JOHN KAMAU', { names })).toBe('JANE DOE');
    // Not a name the messages showed: scrubbed as text, so a select: value still finds its option.
    expect(scrubValue('bundle', 'Weekly Bundle', { names })).toBe('Weekly Bundle');
    expect(scrubValue('amount', '100.00', { names })).toBe('100.00');
    expect(scrubValue('ref', 'QAB1CD2EF3', { names })).toBe('QAB1CD2EF3');
  });

  it('an imported record stays a passing session: names gone from screens and variables alike, options kept', async () => {
    const record = {
      action_name: 'Buy bundle', status: 'succeeded', category: 'bought',
      session_messages: ['1. Daily Bundle 500MB\n2. Weekly Bundle 2GB', 'Send Weekly Bundle to ACHIENG ODHIAMBO 0712345678?', 'Done'],
      values_entered: ['2', '1'],
      input_extras: { bundle: 'Weekly Bundle', label: 'ACHIENG ODHIAMBO' },
      parsed_variables: { to: 'ACHIENG ODHIAMBO' },
    };
    const r = await runCli(['sessions', 'import', tmp.write('unknown-key.json', JSON.stringify(record))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/ACHIENG|ODHIAMBO|345678/);
    expect(r.stdout).toContain('bundle: Weekly Bundle');
    expect(r.stdout).toContain('label: JANE DOE');
    expect(r.stdout).toMatch(/to JANE DOE 0710000000/);
  });
});

describe('scrubText', () => {
  it.each([
    ['Call 0712 345 678 now', 'Call 0710 000 000 now'],
    ['+254712345678', '+254000000000'],
    ['Dear John Doe, welcome', 'Dear Jane Doe, welcome'],
    ['Sent to PETER OTIENO 0722000111.', 'Sent to JANE DOE 0720000000.'],
    ['Balance Ksh12,345.00 on 2/10/23', 'Balance Ksh12,345.00 on 2/10/23'],
    ['QAB1CD2EF3 Confirmed', 'QAB1CD2EF3 Confirmed'],
    ['write to a.b@c.co.ke', 'write to user@example.com'],
    ['Ksh500.00 sent to JOHN DOE for account 1234 on 2/10/23', 'Ksh500.00 sent to JANE DOE for account 1234 on 2/10/23'],
    ['received from MARY W KAMAU on 2/10', 'received from JANE DOE on 2/10'],
    ['Welcome to M-PESA', 'Welcome to M-PESA'],
    // Greetings and labels in capitals, as operators write whole screens.
    ['CONFIRM TRANSFER. NAME: JOHN KAMAU', 'CONFIRM TRANSFER. NAME: JANE DOE'],
    ['RECIPIENT: Mary Wanjiku', 'RECIPIENT: Jane Doe'],
    ['DEAR PETER OTIENO, YOUR LOAN IS DUE', 'DEAR JANE DOE, YOUR LOAN IS DUE'],
    ['AGENT: PETER OTIENO\nEnter PIN', 'AGENT: JANE DOE\nEnter PIN'],
    // Found in an adversarial review: a colon after `to`, an honorific after a greeting, and
    // digits of other scripts (masked with the zero of their own script, so \p{Nd} still matches).
    ['Sent to: ACHIENG ODHIAMBO', 'Sent to: JANE DOE'],
    ['Mwangi Kamau, simu 0712 345678', 'Jane Doe, simu 0710 000000'],
    ['Pay JOHN KAMAU, tel. 0712345678', 'Pay JANE DOE, tel. 0710000000'],
    ['Balance, call 0712345678', 'Balance, call 0710000000'],
    ['Hi DR. JOHN, your loan', 'Hi DR. JANE DOE, your loan'],
    ['Hello Mrs Mary Wanjiku', 'Hello Mrs Jane Doe'],
    ['رقم ٠٧١٢٣٤٥٦٧٨ تم', 'رقم ٠٧١٠٠٠٠٠٠٠ تم'],
    ['۰۷۱۲۳۴۵۶۷۸', '۰۷۱۰۰۰۰۰۰۰'],
    ['call ０７１２３４５６７８', 'call ０７１０００００００'],
    ['दूरभाष ०७१२३४५६७८', 'दूरभाष ०७१०००००००'],
    ['on ٢٠٢٣-١٠-٠٢ ref ٠٧١٢٣٤٥٦٧٨', 'on ٢٠٢٣-١٠-٠٢ ref ٠٧١٠٠٠٠٠٠٠'],
  ])('%s', (input, expected) => {
    expect(scrubText(input)).toBe(expected);
  });
});
