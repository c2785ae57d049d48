// sessions import over-scrubbed a value that is a menu option (issue 34 item 5): under a key that
// names a person or an account (`account_type`, `bundle_name`), "Savings Account" became "Jane Doe",
// so the imported session no longer matched its own screens. A value that names an option the
// record's screens show is menu text: kept as the scrubbed screen shows it.
import { afterAll, describe, expect, it } from 'vitest';
import { menuOptionsShown, scrubText, scrubValue } from '../../src/sessions/scrub.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-import-options-');
afterAll(() => tmp.remove());

const SCREENS = [
  'Choose account:\n1. Current Account\n2. Savings Account',
  'Choose bundle:\n1. Daily Bundle 500MB\n2. Weekly Bundle 2GB',
  'Pay to:\n1. JOHN KAMAU 0712345678\n2. New recipient',
  'Done',
];

describe('scrubValue with the record\'s menu options', () => {
  const options = menuOptionsShown(SCREENS, SCREENS.map((s) => scrubText(s)));

  it.each([
    ['account_type', 'Savings Account', 'Savings Account'],
    ['bundle_name', 'weekly bundle 2gb', 'weekly bundle 2gb'],
    ['account', '2', '2'],
    // The option as the scrubbed screen shows it: nothing the screens do not show already.
    ['recipient', 'JOHN KAMAU 0712345678', 'JANE DOE 0710000000'],
  ])('%s: %j -> %j', (key, value, shown) => {
    expect(scrubValue(key, value, { options })).toBe(shown);
  });

  it.each([
    ['recipient_name', 'Mary Wanjiku', 'Jane Doe'],
    ['phone', '0712345678', '0710000000'],
    ['pin', '2', '****'],
  ])('a value that is no option is scrubbed as before: %s', (key, value, scrubbed) => {
    expect(scrubValue(key, value, { options })).toBe(scrubbed);
  });
});

describe('menuctl sessions import', () => {
  it('keeps a variable whose value is a menu option, whatever its key', async () => {
    const record = {
      action_name: 'Save', status: 'succeeded', category: 'saved',
      session_messages: SCREENS, values_entered: ['2', '2', '2'],
      input_extras: { account_type: 'Savings Account', bundle_name: 'Weekly Bundle 2GB', phone: '0712345678' },
      parsed_variables: { account_type: 'Savings Account' },
    };
    const r = await runCli(['sessions', 'import', tmp.write('options.json', JSON.stringify(record))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/variables:\n(?:\s+\w+: .*\n)*\s+account_type: Savings Account\n/);
    expect(r.stdout).toContain('bundle_name: Weekly Bundle 2GB');
    expect(r.stdout).toMatch(/expect:[\s\S]*variables:\s+account_type: Savings Account/);
    expect(r.stdout).not.toMatch(/KAMAU|345678/);
  });
});
