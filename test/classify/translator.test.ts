// compileJavaPattern on its own (no JVM needed): table-driven verdicts for the differences between
// Java and JavaScript regexes, the group list, anchoring and the cache.
import { describe, expect, it } from 'vitest';
import { compileJavaPattern } from '../../src/classify/java-regex.js';

const verdict = (pattern: string, text: string): boolean | 'unfaithful' | 'error' => {
  const c = compileJavaPattern(pattern);
  if (!c.ok) return 'error';
  if (c.unfaithful.length > 0) return 'unfaithful';
  return c.regex.test(text);
};

describe('compileJavaPattern verdicts', () => {
  it.each([
    // [pattern, message, expected, why]
    ['a\\sb', 'a\u00a0b', false, 'JS \\s would accept NBSP'],
    ['a\\sb', 'a\u000bb', true, 'Java \\s includes VT'],
    ['a[^\\s]b', 'a\u00a0b', true, 'negated \\s in a class'],
    ['a.b', 'a\u0085b', false, 'JS . would accept NEL'],
    ['a.b', 'a\nb', false, '. does not cross line breaks'],
    ['(?s)a.b', 'a\nb', true, 'DOTALL inline'],
    ['x(?s:.)y.', 'x\ny\n', false, 'scoped DOTALL ends with the group'],
    ['é', 'É', false, 'JS i would fold é'],
    ['[a-z]+', 'ABC', true, 'ASCII folding of ranges'],
    ['[^a-z]', 'Q', false, 'negated classes are folded before negation'],
    ['a(?-i)b', 'AB', false, '(?-i) mid-pattern'],
    ['(a(?-i)b)c', 'abC', true, 'inline flags end with their group'],
    ['balance', 'Your balance', false, 'whole message only'],
    ['bal|x', 'balx', false, 'alternation is inside the anchoring'],
    ['\\Q1+1=2\\E', '1+1=2', true, 'quoted literal'],
    ['a*+a', 'aaa', false, 'possessive'],
    ['(?>ab|a)c', 'abc', true, 'atomic group'],
    ['\\p{Punct}+', '!?.', true, 'POSIX class'],
    ['\\h+', '\u00a0\t', true, 'horizontal whitespace'],
    ['a\\Rb', 'a\r\nb', true, 'line break sequence'],
    ['{2}x', 'x', true, 'a count with nothing before it'],
    ['x{2}{3}', 'xx', true, 'a second count repeats nothing'],
    ['{balance}', '{balance}', 'error', 'Java: Illegal repetition'],
    ['\\p{L}', 'a', true, 'Unicode property (Java 17 tables)'],
    ['\\p{IsEmoji}', 'a', 'error', 'not a Java 17 property'],
    ['\\X', 'a', 'unfaithful', 'grapheme cluster'],
  ] as [string, string, boolean | 'unfaithful' | 'error', string][])('%s on %j -> %s (%s)', (pattern, text, expected) => {
    expect(verdict(pattern, text)).toBe(expected);
  });
});

describe('compileJavaPattern result', () => {
  it('lists named groups in order and emits no i flag', () => {
    const c = compileJavaPattern('(?<amount>\\d+) from (?<name>\\w+)(x)');
    expect(c.ok && c.groups).toEqual(['amount', 'name']);
    expect(c.ok && c.regex.flags).toBe('u');
  });

  it('anchors to the whole input', () => {
    const c = compileJavaPattern('a|b');
    expect(c.ok && [c.regex.test('a'), c.regex.test('ab'), c.regex.test('xb')]).toEqual([true, false, false]);
  });

  it('caches compiled patterns', () => {
    expect(compileJavaPattern('cache(?<me>x)')).toBe(compileJavaPattern('cache(?<me>x)'));
  });

  it('points errors at the offending index of the original pattern', () => {
    const c = compileJavaPattern('\\Qa{\\E{x');
    expect(c.ok).toBe(false);
    expect(!c.ok && c.issues[0]).toMatchObject({ code: 'regex.syntax', index: 6 });
  });
});
