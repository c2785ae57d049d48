// lintRegex: errors for what Java rejects, warnings for what menuctl cannot evaluate faithfully,
// for catastrophic backtracking shapes and for parts that are useless under matches().
import { describe, expect, it } from 'vitest';
import { lintRegex } from '../../src/classify/lint.js';

const codes = (p: string) => lintRegex(p).map((i) => `${i.severity}:${i.code}`);

describe('lintRegex errors (the device cannot compile the pattern)', () => {
  it.each([
    ['{balance}', /Illegal repetition/, 0],
    ['Bal: (?<bal_1>\\d+)', /Java group names allow letters and digits only/, 8],
    ['(?<a>x)(?<a>y)', /<a> is already defined/, 7],
    ['[[]', /unescaped \[ inside a class opens a nested class/, 1],
    ['(?<=(?:ab)*)x', /obvious maximum length/, 0],
    ['abc\\', /trailing backslash/, 3],
    ['x**', /Dangling meta character '\*'/, 2],
    ['\\p{IsEmoji}', /Unknown character property name \{IsEmoji\}/, 0],
    ['\\p{javalowercase}', /Unknown character property name/, 0],
    ['x\\p{InArabic_Extended-B}', /Unknown character property name/, 1],
    ['\\p{gc=lu}', /Unknown Unicode property \{name=<gc>, value=<lu>\}/, 0],
    ['\\N{NOT A NAME}', /Unknown character name \[NOT A NAME\]/, 0],
    ['a\\b{w}', /Illegal repetition/, 3],
    ['(?<=xa*?)y', /obvious maximum length/, 0],
  ])('%s', (pattern, message, index) => {
    const issues = lintRegex(pattern);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'error', index });
    expect(issues[0]!.message).toMatch(message);
  });

  it('uses a dedicated code for group names and duplicates', () => {
    expect(codes('(?<bal_1>x)')).toEqual(['error:regex.group-name']);
    expect(codes('(?<a>x)(?<a>y)')).toEqual(['error:regex.duplicate-group']);
  });
});

describe('lintRegex warnings', () => {
  it.each([
    ['\\X+', 'regex.unsupported'],
    ['a\\b{g}', 'regex.unsupported'],
    ['(?:\\R\\s)+', 'regex.linebreak-repeat'],
    ['(?x)a b', 'regex.unsupported-flag'],
    ['(a)\\1', 'regex.backreference'],
    ['.*(?<=xa*)y', 'regex.unbounded-lookbehind'],
    ['(?:(?<a>x)|y)+', 'regex.repeated-capture'],
  ])('%s cannot be evaluated faithfully (%s)', (pattern, code) => {
    const issue = lintRegex(pattern).find((i) => i.code === code);
    expect(issue?.severity).toBe('warning');
    expect(issue?.message).toMatch(/^menuctl test cannot evaluate this faithfully: /);
  });

  it.each([
    ['(a+)+', /nested repetition/],
    ['(\\w+\\s?)*', /nested repetition/],
    ['(.*)*', /nested repetition/],
    ['(\\d|\\w)+', /repeated alternation/],
    ['\\d+\\d+\\d+x', /degree 3\)/],
    ['.*.*.*', /degree 3\)/],
    ['.*[\\s]*.*', /about 1\.8e\+9 ways .*degree 3/],
  ])('%s may backtrack catastrophically', (pattern, message) => {
    const issues = lintRegex(pattern).filter((i) => i.code === 'regex.backtracking');
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]!.message).toMatch(message);
  });

  // Issue 11: harmless at USSD/SMS lengths (measured with Java 17, docs/regex.md "Lint policy").
  it.each([
    '.*airtime of UGX\\s?(?<amount>[\\d,]+).*successful.*',
    '\\d+\\d+',
    '.*.*',
    '.*Confirmed.*balance[\\s]*is[\\s]*Ksh(?<balance>[0-9\\,\\.]+).*',
  ])('%s (degree 2 at most) is not flagged on either channel', (pattern) => {
    expect(lintRegex(pattern, { channel: 'sms' }).filter((i) => i.code === 'regex.backtracking')).toEqual([]);
    expect(lintRegex(pattern, { channel: 'ussd' }).filter((i) => i.code === 'regex.backtracking')).toEqual([]);
  });

  it('weighs a polynomial shape by the channel: degree 3 is flagged on sms, not on a 182-character ussd reply', () => {
    const pattern = 'Bal \\d+\\d+\\d+x';
    const sms = lintRegex(pattern, { channel: 'sms' }).filter((i) => i.code === 'regex.backtracking');
    expect(sms.map((i) => i.message)).toEqual([expect.stringMatching(/on a 1530-character sms reply .*degree 3/)]);
    expect(lintRegex(pattern, { channel: 'ussd' }).filter((i) => i.code === 'regex.backtracking')).toEqual([]);
    const four = lintRegex('\\d+\\d+\\d+\\d+x', { channel: 'ussd' }).filter((i) => i.code === 'regex.backtracking');
    expect(four.map((i) => i.message)).toEqual([expect.stringMatching(/on a 182-character ussd reply .*about 1\.9e\+8 ways .*degree 4/)]);
  });

  it('always flags exponential shapes, whatever the channel', () => {
    expect(lintRegex('(\\w+\\s?)*Ksh', { channel: 'ussd' }).map((i) => i.code)).toContain('regex.backtracking');
  });

  it.each(['(?<balance>[\\d,.]+).*', '(a+b)*', '(?:\\d+,)*\\d+', '\\d+[.,]\\d+', '(a++)+', '[a-z]+\\d+', '(?>\\w+\\s?)*'])(
    '%s is not flagged for backtracking',
    (pattern) => {
      expect(codes(pattern).filter((c) => c.endsWith('regex.backtracking'))).toEqual([]);
    },
  );

  it('flags redundant anchors and a lazy quantifier at the very end', () => {
    expect(codes('^Balance .*$')).toEqual(['warning:regex.redundant-anchor', 'warning:regex.redundant-anchor']);
    expect(codes('.*?UGX\\s(?<balance>[0-9,.]+).*?')).toContain('warning:regex.lazy-at-end');
    expect(codes('.*?UGX\\s(?<balance>[0-9,.]+).*')).not.toContain('warning:regex.lazy-at-end');
  });

  it('has nothing to say about a plain, safe parser', () => {
    expect(lintRegex('Your balance is (?<balance>[\\d,.]+) KES\\..*')).toEqual([]);
  });
});
