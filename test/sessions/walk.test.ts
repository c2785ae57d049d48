// The pure parts of a session: reading options off a screen, choosing a select option, walking steps.
import { describe, expect, it } from 'vitest';
import { menuOptions, selectOption } from '../../src/sessions/options.js';
import { walkSession } from '../../src/sessions/walk.js';
import type { Session, Step } from '../../src/model/types.js';

describe('menuOptions', () => {
  it.each([
    ['1. Send money', [{ number: '1', text: 'Send money' }]],
    ['6)My Account', [{ number: '6', text: 'My Account' }]],
    ['  7: Loans  ', [{ number: '7', text: 'Loans' }]],
    ['98 - More', [{ number: '98', text: 'More' }]],
    ['00>Back', [{ number: '00', text: 'Back' }]],
    ['1. 500MB Daily', [{ number: '1', text: '500MB Daily' }]],
    ['10.5 GB left', []],
    ['Your balance is 1,200.00', []],
    ['Enter PIN:', []],
  ])('%j', (screen, options) => {
    expect(menuOptions(screen)).toEqual(options);
  });

  it('reads each line of a multi-line screen, whatever its line breaks', () => {
    expect(menuOptions('Menu\r\n1. A\r2. B\n3. C').map((o) => o.number)).toEqual(['1', '2', '3']);
  });
});

describe('selectOption', () => {
  const options = menuOptions('1. 1GB Daily\n2. 1GB Weekly\n3. 1GB Weekly Plus\n4. 10GB  Monthly');
  it.each([
    ['daily', '1'],
    ['1gb weekly', '2'],      // contained by 2 and 3; the exact text wins
    ['10GB Monthly', '4'],    // whitespace folded
  ])('%s -> option %s', (value, number) => {
    const r = selectOption(options, value);
    expect(r.ok && r.option.number).toBe(number);
  });

  it.each([
    ['1GB', 'ambiguous'],
    ['2GB', 'no-match'],
  ])('%s fails: %s', (value, reason) => {
    const r = selectOption(options, value);
    expect(!r.ok && r.reason).toBe(reason);
  });
});

describe('walkSession', () => {
  const steps: Step[] = [{ kind: 'press', value: '2', expect: 'Airtime' }, { kind: 'variable', name: 'amount' }, { kind: 'ok' }];
  const session = (screens: string[], variables: Record<string, string> = { amount: '50' }): Session =>
    ({ name: 's', variables, screens, sms: [], expect: 'none' });

  it('answers each screen and keeps the reply', () => {
    const w = walkSession(steps, session(['1. Data\n2. Airtime', 'Amount:', 'Confirm?', 'Done']));
    expect(w.steps.map((s) => s.response)).toEqual(['2', '50', '']);
    expect(w.reply).toBe('Done');
    expect(w.problems).toEqual([]);
  });

  it('accepts a press whose expect is in the title of a screen without options', () => {
    const w = walkSession([{ kind: 'press', value: '1', expect: 'Confirm' }], session(['Confirm payment? Reply 1', 'OK']));
    expect(w.steps[0]!.ok).toBe(true);
  });

  it('stops at the first step that does not fit, with no reply', () => {
    const w = walkSession(steps, session(['1. Data\n2. Airtime', 'Amount:', 'Confirm?', 'Done'], {}));
    expect(w.steps).toHaveLength(2);
    expect(w.steps[1]!.ok).toBe(false);
    expect(w.reply).toBeNull();
  });

  it('with too few screens, walks the answered steps and keeps the last screen as the reply', () => {
    const w = walkSession(steps, session(['1. Data\n2. Airtime', 'Service unavailable']));
    expect(w.steps).toHaveLength(1);
    expect(w.reply).toBe('Service unavailable');
    expect(w.problems[0]).toContain('step 2 (variable amount) had nothing to answer');
  });
});
