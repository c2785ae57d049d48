// classify() with the device's semantics, on real reply texts (test/fixtures/real-parsers.tsv).
import { describe, expect, it } from 'vitest';
import { classify } from './in-process.js';
import { lintRegex } from '../../src/classify/lint.js';
import type { DesiredParser } from '../../src/model/types.js';
import { realParsers } from './real-parsers.js';

const rows = realParsers();
const row = (source: string) => rows.find((r) => r.source === source)!;

const ussd = (regex: string, category = 'p', status: DesiredParser['status'] = 'succeeded'): DesiredParser => ({
  category, status, regex, target_type: 'ussd', sender: null, user_message: '',
});
const sms = (regex: string, sender: string, category = 's'): DesiredParser => ({
  category, status: 'succeeded', regex, target_type: 'sms', sender, user_message: '',
});

describe('classify on real replies', () => {
  it('extracts the named groups of the MTN MoMo agent balance reply', () => {
    const r = row('runnerv2:205907');
    const out = classify({ text: r.message, channel: 'ussd' }, [ussd(r.regex, 'balance')]);
    expect(out.unevaluable).toEqual([]);
    expect(out.matches).toEqual([{ index: 0, category: 'balance', status: 'succeeded', variables: { balance: '1,250,000.' } }]);
  });

  it('extracts several variables from the airtime payment reply', () => {
    const r = row('runnerv2:33254');
    const [m] = classify({ text: r.message, channel: 'ussd' }, [ussd(r.regex)]).matches;
    expect(m?.variables).toMatchObject({ amount: '5,000', balance: '120,500.' });
  });

  it('does not let . cross line breaks: the multi-line M-PESA SMS does not match', () => {
    const r = row('synthetic:multiline');
    expect(r.message).toContain('\n');
    const out = classify({ text: r.message, channel: 'sms', sender: 'MPESA' }, [sms(r.regex, 'MPESA')]);
    expect(out.matches).toEqual([]);
    expect(out.unevaluable).toEqual([]);
    // The same text on one line does match: only the line breaks stop it.
    const flat = classify({ text: r.message.replace(/\n/g, ' '), channel: 'sms', sender: 'MPESA' }, [sms(r.regex, 'MPESA')]);
    expect(flat.matches[0]?.variables).toEqual({ balance: '12,345.00.' });
  });

  it('matches (?s) patterns across line breaks', () => {
    const r = row('synthetic:multiline');
    const out = classify({ text: r.message, channel: 'sms', sender: 'MPESA' }, [sms(`(?s)${r.regex}`, 'MPESA')]);
    expect(out.matches[0]?.variables.balance).toBe('12,345.00.');
  });

  it('ignores ASCII case differences in the text', () => {
    const r = row('synthetic:failed');
    const out = classify({ text: r.message.toUpperCase(), channel: 'ussd' }, [ussd(r.regex, 'insufficient', 'failed')]);
    expect(out.matches.map((m) => m.category)).toEqual(['insufficient']);
  });

  it('does not fold non-ASCII case', () => {
    const out = classify({ text: 'SOLDE ÉPUISÉ', channel: 'ussd' }, [ussd('solde épuisé')]);
    expect(out.matches).toEqual([]);
  });

  it('does not match a regex that only matches a prefix of the message', () => {
    // Without a trailing .* the pattern matches "Insufficient balance" but not the whole message.
    const out = classify({ text: row('synthetic:failed').message, channel: 'ussd' }, [ussd('Insufficient[\\s]*balance')]);
    expect(out.matches).toEqual([]);
    const withTail = classify({ text: row('synthetic:failed').message, channel: 'ussd' }, [ussd('Insufficient[\\s]*balance.*')]);
    expect(withTail.matches).toHaveLength(1);
  });

  it('does not match a regex that only matches a substring in the middle', () => {
    const r = row('runnerv2:200528');
    const out = classify({ text: `Dear customer, ${r.message}`, channel: 'ussd' }, [ussd(r.regex)]);
    expect(out.matches).toEqual([]);
  });

  it('matches every compilable real row against its own message, except the multi-line one', () => {
    const ok = rows.filter((r) => r.source !== 'synthetic:multiline' && lintRegex(r.regex).every((i) => i.severity !== 'error'));
    // Pinned, so a lint that wrongly rejected a good row could not shrink the loop unnoticed.
    expect(ok.map((r) => r.source)).toEqual(rows.map((r) => r.source).filter((s) => s !== 'synthetic:multiline' && s !== 'runnerv2:290594'));
    expect(ok).toHaveLength(10);
    for (const r of ok) {
      const out = classify({ text: r.message, channel: 'ussd' }, [ussd(r.regex)]);
      expect(out.matches.length, r.source).toBe(1);
    }
  });

  it('reports the last real row as an error: it does not compile in Java', () => {
    const last = rows[rows.length - 1]!;
    const issues = lintRegex(last.regex);
    expect(issues.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual(['regex.syntax']);
    expect(issues[0]!.message).toMatch(/Dangling meta character '\*'/);
    const out = classify({ text: last.message, channel: 'ussd' }, [ussd(last.regex, 'cashout')]);
    expect(out.matches).toEqual([]);
    expect(out.unevaluable).toEqual([{ index: 0, category: 'cashout', reason: expect.stringMatching(/does not compile in Java/) }]);
  });
});

describe('classify: channels, senders and several matches', () => {
  const text = 'QAB1 Confirmed. Balance is Ksh100.';
  const parsers = [
    ussd('.*balance is Ksh(?<b>[\\d.]+)', 'ussd-balance'),
    sms('.*Confirmed.*', 'MPESA', 'confirmed'),
    sms('.*balance is Ksh(?<b>[\\d.]+)', 'MPESA', 'sms-balance'),
  ];

  it('applies ussd parsers to ussd messages only', () => {
    expect(classify({ text, channel: 'ussd' }, parsers).matches.map((m) => m.category)).toEqual(['ussd-balance']);
  });

  it('requires the exact sender, case-sensitively, for sms parsers', () => {
    expect(classify({ text, channel: 'sms', sender: 'MPESA' }, parsers).matches.map((m) => m.category)).toEqual(['confirmed', 'sms-balance']);
    expect(classify({ text, channel: 'sms', sender: 'Mpesa' }, parsers).matches).toEqual([]);
    expect(classify({ text, channel: 'sms' }, parsers).matches).toEqual([]);
  });

  it('returns every matching parser in config order with its own variables', () => {
    const out = classify({ text, channel: 'sms', sender: 'MPESA' }, parsers);
    expect(out.matches).toEqual([
      { index: 1, category: 'confirmed', status: 'succeeded', variables: {} },
      { index: 2, category: 'sms-balance', status: 'succeeded', variables: { b: '100.' } },
    ]);
  });

  it('omits named groups that did not participate', () => {
    const out = classify({ text: 'Balance 5', channel: 'ussd' }, [ussd('Balance (?:(?<ksh>\\d+) KES|(?<n>\\d+))')]);
    expect(out.matches[0]?.variables).toEqual({ n: '5' });
  });

  it('refuses to evaluate a parser it cannot reproduce, naming the reason', () => {
    const out = classify({ text: 'é', channel: 'ussd' }, [ussd('\\X', 'letter')]);
    expect(out.matches).toEqual([]);
    expect(out.unevaluable[0]).toMatchObject({ index: 0, category: 'letter', reason: expect.stringMatching(/\\X \(grapheme cluster\)/) });
  });

  it('evaluates \\p{L} with Java 17\'s tables: U+0870 is no letter there, whatever Node says', () => {
    const parsers = [ussd('\\p{L}', 'letter')];
    expect(classify({ text: 'é', channel: 'ussd' }, parsers).matches.map((m) => m.category)).toEqual(['letter']);
    expect(classify({ text: '\u0870', channel: 'ussd' }, parsers)).toEqual({ matches: [], unevaluable: [] });
  });

  it('refuses \\b only for a reply whose characters Java 17 and Node classify differently', () => {
    const parsers = [ussd('.*\\bx', 'word')];
    expect(classify({ text: 'é x', channel: 'ussd' }, parsers).matches).toHaveLength(1);
    const out = classify({ text: '\u0870x', channel: 'ussd' }, parsers);
    expect(out.unevaluable[0]?.reason).toMatch(/U\+0870, which Java 17 \(Unicode 13\) and this Node.js/);
  });

  it('refuses a look-behind only for a reply holding a surrogate pair', () => {
    const parsers = [ussd('.*(?<=x.)y', 'lb')];
    expect(classify({ text: 'xay', channel: 'ussd' }, parsers).matches).toHaveLength(1);
    expect(classify({ text: 'x\u{1F600}y', channel: 'ussd' }, parsers).unevaluable[0]?.reason).toMatch(/surrogate pair/);
  });
});
