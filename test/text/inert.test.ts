// The one escaping rule (src/text/inert.ts): what it escapes, and the properties its comment
// promises, checked on arbitrary strings with fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inert, inertJson, inertLines } from '../../src/text/inert.js';
import { code, mdText } from '../../src/report/markdown-util.js';

/** Anything a terminal acts on or that breaks a line: what must never come out. */
const ACTIVE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Strings rich in the characters that matter, mixed with ordinary and astral text. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\x1b', '\x9b', '\x07', '\b', '\r', '\n', '\u0085', '\u2028', '\u2029', '\u202e', '\u2066', '\u200b', '\ufeff', '\ud800', '\udfff', '\u{E0001}', '\\', '"', 'u', '0'),
    fc.string({ unit: 'grapheme', maxLength: 1 }),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 40,
});

describe('inert', () => {
  it.each([
    ['a title escape', '\x1b]0;pwned\x07', '\\u001b]0;pwned\\u0007'],
    ['clear screen', '\x1b[2J', '\\u001b[2J'],
    ['an 8-bit CSI', '\x9b2J', '\\u009b2J'],
    ['a carriage return', 'ok\rfail', 'ok\\rfail'],
    ['a fake result line', 'x\n✓ create action["x"]', 'x\\n✓ create action["x"]'],
    ['NEL and the separators', 'a\u0085b\u2028c\u2029d', 'a\\u0085b\\u2028c\\u2029d'],
    ['a bidi override', 'abc\u202edcba', 'abc\\u202edcba'],
    ['an isolate', '\u2066x\u2069', '\\u2066x\\u2069'],
    ['a zero-width space and a BOM', 'a\u200bb\ufeff', 'a\\u200bb\\ufeff'],
    ['a backspace', 'ok\b\b', 'ok\\u0008\\u0008'],
    ['a lone surrogate', 'x\ud800', 'x\\ud800'],
    ['a tag character (astral)', '\u{E0001}', '\\udb40\\udc01'],
    ['a regex, as written', '^Balance: (\\d+\\.\\d{2})$', '^Balance: (\\d+\\.\\d{2})$'],
    ['accents and emoji', 'Solde é 😀', 'Solde é 😀'],
  ])('%s', (_what, input, shown) => {
    expect(inert(input)).toBe(shown);
  });

  it('leaves nothing a terminal acts on, and no line break', () => {
    fc.assert(fc.property(hostile, (s) => !ACTIVE.test(inert(s))), { numRuns: 2000 });
  });

  it('is idempotent: a second layer escaping again changes nothing', () => {
    fc.assert(fc.property(hostile, (s) => inert(inert(s)) === inert(s)), { numRuns: 2000 });
  });

  it('is the identity on text with nothing to escape', () => {
    fc.assert(fc.property(hostile, (s) => ACTIVE.test(s) || inert(s) === s), { numRuns: 2000 });
  });

  it('is reversible (JSON escapes) on text without a backslash', () => {
    fc.assert(fc.property(hostile.filter((s) => !s.includes('\\')), (s) => {
      const back = JSON.parse(`"${inert(s).replace(/"/g, '\\"')}"`) as string;
      return back === s;
    }), { numRuns: 2000 });
  });
});

describe('the ranges issue 36 names', () => {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
  it.each([
    ['C0 with ESC and CR', range(0x00, 0x1f)],
    ['DEL and C1 with CSI U+009B and OSC U+009D', range(0x7f, 0x9f)],
    ['bidi embeddings and overrides', range(0x202a, 0x202e)],
    ['bidi isolates', range(0x2066, 0x2069)],
  ])('%s: each one escaped', (_what, chars) => {
    for (const c of chars) expect(inert(`a${c}b`)).toMatch(/^a\\(?:[nrt]|u[0-9a-f]{4})b$/);
  });
});

describe('inertJson', () => {
  it('leaves no DEL, C1, format character or separator in JSON text, and the same value', () => {
    fc.assert(fc.property(hostile, (s) => {
      const out = inertJson(JSON.stringify({ s, list: [s] }, null, 2));
      expect(JSON.parse(out)).toEqual({ s, list: [s] });
      return !/(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(out);
    }), { numRuns: 2000 });
  });
});

describe('inertLines', () => {
  it('keeps the line breaks of menuctl\'s own text and escapes the rest', () => {
    expect(inertLines('first\n  - \x1b[2Jsecond\u202e')).toBe('first\n  - \\u001b[2Jsecond\\u202e');
  });
});

describe('markdown: a string cannot break out', () => {
  const ACTIVE_MD = /<\/?[a-z]|`|\|(?!\d)|@[a-z]|\]\(|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/iu;
  it.each([
    ['a closing tag', 'x</code></summary></details><img src=x>'],
    ['a table cell end', 'a | b'],
    ['a code span', '`rm -rf`'],
    ['a mention', 'ping @alice and @org/team'],
    ['a link', '[click](https://evil.example)'],
    ['a terminal escape and a line break', '\x1b[2J\n# heading'],
  ])('%s', (_what, s) => {
    expect(mdText(s)).not.toMatch(ACTIVE_MD);
    expect(code(s).slice('<code>'.length, -'</code>'.length)).not.toMatch(/<\/?[a-z]|`|\||\]\(|\n/i);
  });
});
