// Defects found by the review of the sessions feature (each test failed before its fix).
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ACCOUNT, MENU, mpesaBalance, tempDir } from './helpers.js';
import { renderPlanMarkdown } from '../../src/report/plan-markdown.js';
import type { DesiredAction } from '../../src/model/types.js';
import { createParser, plan } from '../apply/plan-data.js';
import { menuOptions } from '../../src/sessions/options.js';
import { walkSession } from '../../src/sessions/walk.js';
import type { Session, Step } from '../../src/model/types.js';

const tmp = tempDir('menuctl-review-');
afterAll(() => tmp.remove());

const ESC = /\x1b\[[0-9;]*m/g;

describe('transcript', () => {
  it('aligns a screen\'s later lines under its first on a colour terminal too', async () => {
    const file = tmp.write('color.yaml', mpesaBalance(`      - name: ok
        screens: [${MENU}, ${ACCOUNT}, "Enter PIN:", "Your request has been received."]
        sms:
          - { sender: MPESA, message: "QAB1CD2EF3 Confirmed.\\nYour balance is Ksh1.00 now." }
        expect: { category: request-received }
`));
    const plain = await runCli(['test', file, '--transcript']);
    const color = await runCli(['test', file, '--transcript'], { tty: true, env: { NO_COLOR: undefined } });
    expect(color.stdout).toMatch(ESC);
    expect(color.stdout.replace(ESC, '')).toBe(plain.stdout);
  });

  it('shows control characters in a screen or SMS as escapes, so a recorded screen cannot drive the terminal', async () => {
    const file = tmp.write('ctl.yaml', mpesaBalance(`      - name: ctl
        screens: [${MENU}, ${ACCOUNT}, "Enter PIN:\\e[2J", "Your request has been received.\\a"]
        sms:
          - { sender: MPESA, message: "x\\e]0;pwned\\a" }
        expect: { category: request-received }
`));
    const r = await runCli(['test', file, '--transcript']);
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(r.stdout).toContain('← Enter PIN:\\u001b[2J');
  });

  it('shows the screens no step answers', async () => {
    const file = tmp.write('extra.yaml', mpesaBalance(`      - name: extra
        screens: [${MENU}, ${ACCOUNT}, "Enter PIN:", "Your request has been received.", "Dial again to continue"]
        expect: { category: request-received }
`));
    const r = await runCli(['test', file, '--transcript']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('      ← Dial again to continue\n');
  });
});

describe('reading screens', () => {
  const walk = (steps: Step[], screens: string[]) =>
    walkSession(steps, { name: 's', variables: {}, screens, sms: [], expect: 'none' } as Session);

  it('reads * and # options, as docs/sessions.md says they are compared', () => {
    expect(menuOptions('1. Send\n#. Next\n*: Back\n00. Home')).toEqual([
      { number: '1', text: 'Send' }, { number: '#', text: 'Next' }, { number: '*', text: 'Back' }, { number: '00', text: 'Home' },
    ]);
    expect(walk([{ kind: 'press', value: '#', expect: 'Next' }], ['1. Send\n#. Next', 'Page 2']).steps[0]!.ok).toBe(true);
    const wrong = walk([{ kind: 'press', value: '*', expect: 'Next' }], ['1. Send\n#. Next', 'Page 2']).steps[0]!;
    expect(wrong.problem).toContain('"Next" is option # on this screen, not *');
  });

  it.each([
    ['1:Yes 2:No', [['1', 'Yes'], ['2', 'No']]],
    ['Send Ksh100 to Jane? 1. Confirm 2. Cancel', [['1', 'Confirm'], ['2', 'Cancel']]],
    ['Menu\n1) Data 2) Voice 3) SMS\n0) Back', [['1', 'Data'], ['2', 'Voice'], ['3', 'SMS'], ['0', 'Back']]],
    // not a run of consecutive numbers: text, not options
    ['1. Pay 100. Confirm', [['1', 'Pay 100. Confirm']]],
    ['Top up 2: 50 bob', []],
    ['(1) Airtime\n(2) Data', [['1', 'Airtime'], ['2', 'Data']]],
    ['[1] Airtime\n[2] Data', [['1', 'Airtime'], ['2', 'Data']]],
    ['1. 📱 Airtime\n2. Dàta ✨', [['1', '📱 Airtime'], ['2', 'Dàta ✨']]],
    ['Buy 1GB for 500. Valid 7 days', []],
  ])('reads options written on one line: %j', (screen, options) => {
    expect(menuOptions(screen).map((o) => [o.number, o.text])).toEqual(options);
  });

  it('walks a confirmation screen whose options share a line with the prompt', () => {
    const w = walk([{ kind: 'press', value: '2', expect: 'Cancel' }], ['Send Ksh100? 1. Confirm 2. Cancel', 'Cancelled']);
    expect(w.steps[0]!.problem).toBeNull();
    const wrong = walk([{ kind: 'press', value: '3' }], ['Send Ksh100? 1. Confirm 2. Cancel', 'Cancelled']);
    expect(wrong.steps[0]!.problem).toBe('option 3 is not on the screen (options: 1. Confirm; 2. Cancel).');
  });

  it('matches options and values whatever their Unicode normal form', async () => {
    const { selectOption } = await import('../../src/sessions/options.js');
    const decomposed = '1. Cre\u0301dit e\u0301te\u0301\n2. Cre\u0301dit hiver';
    const r = selectOption(menuOptions(decomposed), 'Crédit été');
    expect(r.ok && r.option.number).toBe('1');
    expect(walk([{ kind: 'press', value: '2', expect: 'Crédit hiver' }], [decomposed, 'ok']).steps[0]!.ok).toBe(true);
  });

  it('passes a press whose expect names the screen (its title), even when an option repeats the words', () => {
    // The contract: press N fails when the screen does not contain expect, or N is not an option.
    const w = walk([{ kind: 'press', value: '2', expect: 'Balance' }], ['Balance\n1. Balance enquiry\n2. Mini statement', 'Done']);
    expect(w.steps[0]!.problem).toBeNull();
    // A renumbered option is still caught: the words are only in the options.
    const moved = walk([{ kind: 'press', value: '6', expect: 'My Account' }], ['M-PESA\n6. Lipa na M-PESA\n7. My Account', 'x']);
    expect(moved.steps[0]!.problem).toContain('"My Account" is option 7 on this screen, not 6');
  });
});

describe('transcript of what was sent', () => {
  it('shows a variable\'s value as sent, even an empty one or one that looks like the PIN mask', async () => {
    const file = tmp.write('vars.yaml', `version: 1
actions:
  - name: Pay
    root_code: "*1#"
    transport_type: ussd
    operators: [2172]
    steps:
      - variable: note
      - variable: code
    parsers:
      - category: done
        status: succeeded
        regex: 'Done'
    sessions:
      - name: odd values
        variables: { note: "", code: "****" }
        screens: ["Note:", "Code:", "Done"]
        expect: { category: done }
`);
    const r = await runCli(['test', file, '--transcript']);
    expect(r.stdout).toContain('      → "" (variable note)\n');
    expect(r.stdout).toContain('      → **** (variable code)\n');
    expect(r.stdout).not.toContain('(PIN)');
    expect(r.stdout).not.toContain('(OK)');
  });
});

describe('writing and reading files the user names', () => {
  it('says why a page or an import cannot be written, naming the option and the path', async () => {
    const blocker = tmp.write('blocker', 'a file where a directory should be');
    const docs = await runCli(['docs', 'examples', '--out', blocker]);
    expect(docs.code).toBe(1);
    expect(docs.stderr).toBe(`Error: --out ${blocker}/mpesa-kenya.md: cannot write it (a file is in the way of a directory). Choose a path you can write to.\n`);
    const record = tmp.write('rec.json', JSON.stringify({ session_messages: ['Hi'] }));
    const imp = await runCli(['sessions', 'import', record, '--out', `${blocker}/s.yaml`]);
    expect(imp.stderr).toContain(`--out ${blocker}/s.yaml: cannot write it (a file is in the way of a directory)`);
    const dir = await runCli(['sessions', 'import', tmp.dir]);
    expect(dir.stderr).toContain('cannot read it (it is a directory: name the JSON file)');
  });
});

describe('a reply written as a YAML block scalar', () => {
  it('is explained by the line break YAML keeps at its end, not as a reply spanning lines', async () => {
    const file = tmp.write('block.yaml', mpesaBalance(`      - name: block
        screens:
          - ${MENU}
          - ${ACCOUNT}
          - "Enter PIN:"
          - |
            Your request has been received.
        expect: { category: request-received }
`));
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('hint: parser "request-received" would match without the whitespace the reply ends with ("\\n")');
    expect(r.stdout).not.toContain('no line breaks');
  });
});

describe('JUnit', () => {
  it('states a session\'s outcome once in its transcript, and none for a session whose walk failed', async () => {
    const ok = tmp.write('junit-ok.yaml', mpesaBalance(`      - name: ok
        screens: [${MENU}, ${ACCOUNT}, "Enter PIN:", "Your request has been received."]
        expect: { category: request-received }
      - name: stuck
        screens: ["Menu\\n1. Send", ${ACCOUNT}, "Enter PIN:", "Your request has been received."]
        expect: { category: request-received }
`));
    const r = await runCli(['test', ok, '--format', 'junit']);
    const outs = [...r.stdout.matchAll(/<system-out>([\s\S]*?)<\/system-out>/g)].map((m) => m[1]!);
    expect(outs).toHaveLength(2);
    expect(outs[0]!.match(/outcome:/g)).toHaveLength(1);
    expect(outs[1]).not.toContain('outcome:');
  });
});

describe('sessions import scrubbing', () => {
  it.each([
    // a name before a phone number written with spaces
    ['Send Ksh100 to John Kamau 0712 345 678?', 'Send Ksh100 to Jane Doe 0710 000 000?'],
    ['Sent to JOHN KAMAU +254 712 345 678.', 'Sent to JANE DOE +254 000 000 000.'],
    // phone numbers written with brackets, dots or two spaces
    ['Call (0712) 345678 now', 'Call (0710) 000000 now'],
    ['Tel 0712.345.678', 'Tel 0710.000.000'],
    ['Tel 0712  345 678', 'Tel 0710  000 000'],
    // runs longer than 15 digits (card and bank account numbers) are masked whole
    ['Card 4111111111111111 charged', 'Card 4110000000000000 charged'],
    ['A/C 1234567890123456789', 'A/C 1230000000000000000'],
    // names with accents
    ['Dear JOSÉ ÑÚÑEZ, welcome', 'Dear JANE DOE, welcome'],
    ['Hello Amélie Poulain', 'Hello Jane Doe'],
    ['Sent to José Núñez 0712345678', 'Sent to Jane Doe 0710000000'],
    ['Sent to ÉLODIE MARTIN for account 1', 'Sent to JANE DOE for account 1'],
    ['from Ọlá Adéyẹmí 08031234567', 'from Jane Doe 08000000000'],
    // a name is on one line; after a number, the next line's prompt stays; before it, a name stays a name
    ['Send Ksh100 to 0712345678\nEnter PIN:', 'Send Ksh100 to 0710000000\nEnter PIN:'],
    ['Send to 0712345678\nAmount 100', 'Send to 0710000000\nAmount 100'],
    ['Pay JOHN KAMAU\n0712345678', 'Pay JANE DOE\n0710000000'],
    // dates and times are not phone numbers
    ['Paid on 2023-10-02 15:45 ref 0712345678', 'Paid on 2023-10-02 15:45 ref 0710000000'],
    ['Le 08.08.2019 18:50, solde 1200', 'Le 08.08.2019 18:50, solde 1200'],
    ['Appelez le 07.12.34.56.78', 'Appelez le 07.10.00.00.00'],
    // names after the labels confirmations use
    ['Agent: Peter Mwangi, Till 1234', 'Agent: Jane Doe, Till 1234'],
    ['Payee: MARY OTIENO', 'Payee: JANE DOE'],
    ['Beneficiary name: Ọlá Adé', 'Beneficiary name: Jane Doe'],
    // unchanged: what parsers test
    ['Welcome to M-PESA', 'Welcome to M-PESA'],
    ['Balance Ksh12,345.00 on 2/10/23 at 3:45 PM', 'Balance Ksh12,345.00 on 2/10/23 at 3:45 PM'],
    ['Menu\n1. Send\n2. Buy 100 bundles', 'Menu\n1. Send\n2. Buy 100 bundles'],
  ])('%s', async (input, expected) => {
    const { scrubText } = await import('../../src/sessions/scrub.js');
    expect(scrubText(input)).toBe(expected);
  });

  it('reads input_extras and parsed_variables written as JSON strings (as the Hover SDK models them), scrubbed', async () => {
    const record = { status: 'succeeded', category: 'sent', session_messages: ['1. Send', 'Sent'],
      input_extras: JSON.stringify({ phone: '0712345678', amount: '100' }), parsed_variables: '{"name":"JOHN KAMAU"}' };
    const r = await runCli(['sessions', 'import', tmp.write('strings.json', JSON.stringify(record))]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('phone: "0710000000"');
    expect(r.stdout).toContain('amount: "100"');
    expect(r.stdout).toContain('name: JANE DOE');
    expect(r.stdout).not.toMatch(/0712345678|KAMAU/);
  });

  it('does not echo a phone number from a file that is not JSON', async () => {
    const r = await runCli(['sessions', 'import', tmp.write('text.json', '+254712345678 sent Ksh100 to JOHN')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not JSON');
    expect(r.stderr).not.toMatch(/2547|JOHN/);
    const late = await runCli(['sessions', 'import', tmp.write('late.json', '{"session_messages": ["ok"]}\n+254712345678')]);
    expect(late.stderr).toContain("late.json: not JSON (Unexpected non-whitespace character after JSON at line 2, column 1).");
    expect(late.stderr).not.toContain('2547');
  });

  it('never writes a PIN, a secret variable or a sender that is a phone number', async () => {
    const record = {
      data: { attributes: {
        status: 'succeeded', category: 'sent', action_name: 'Send',
        input_extras: { pin: '4321', amount: '100', password: 'hunter22', payee: 'John Kamau' },
        session_messages: ['1. Send\n2. Buy', 'Enter amount', 'Enter PIN:', 'Sent.'],
        values_entered: ['1', '100', '4321'],
        sms_hits: [{ sender: '+254 722 111 222', message: 'Received Ksh100' }, { sender: '0733444555', message: 'Thanks' }],
      } },
    };
    const r = await runCli(['sessions', 'import', tmp.write('pin.json', JSON.stringify(record))]);
    expect(r.code).toBe(0);
    for (const leak of ['4321', 'hunter22', 'John', 'Kamau', '722 111 222', '111', '0733444555', '3444555']) expect(r.stdout, leak).not.toContain(leak);
    expect(r.stdout).toContain('Values entered: 1, 100, (pin)');
    expect(r.stdout).toContain('sender: +254 000 000 000');
  });
});

describe('plan markdown flowcharts at the comment limit', () => {
  const action: DesiredAction = {
    name: 'Bundle', root_code: '*175#', transport_type: 'ussd', operators: [{ ref: 2642 }],
    steps: [{ kind: 'press', value: '1', expect: 'Data' }, { kind: 'pin' }],
    parsers: [{ category: 'bought', status: 'succeeded', target_type: 'ussd', sender: null, regex: '.*bought.*', user_message: '' }],
    tests: [],
  };

  it('keeps a flowchart that fits exactly, with no "left out" note', () => {
    const p = plan([createParser(action.name, 'bought', 'a1')]);
    const full = renderPlanMarkdown(p, { actions: [action] });
    expect(full).toContain('```mermaid');
    // fitDocument keeps a document one character under its limit (its own margin).
    expect(renderPlanMarkdown(p, { actions: [action], maxChars: full.length + 1 })).toBe(full);
    for (const maxChars of [full.length, full.length - 1]) {
      const less = renderPlanMarkdown(p, { actions: [action], maxChars });
      expect(less, String(maxChars)).not.toContain('```mermaid');
      expect(less, String(maxChars)).not.toContain('left out');
      expect(less, String(maxChars)).toContain('```diff');
    }
  });
});
