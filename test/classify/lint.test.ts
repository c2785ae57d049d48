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
    ['\\d+\\d+', /overlapping characters/],
    ['.*.*', /overlapping characters/],
    ['.*[\\s]*.*', /overlapping characters/],
  ])('%s may backtrack catastrophically', (pattern, message) => {
    const issues = lintRegex(pattern).filter((i) => i.code === 'regex.backtracking');
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]!.message).toMatch(message);
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
