// The JUnit reports of `test` and `drift` share one escaping: markup escaped, control characters
// that XML 1.0 cannot carry written as \uXXXX, newlines kept inside attributes.
import { describe, expect, it } from 'vitest';
import { renderConfigErrorJunit } from '../../src/report/fixtures.js';
import { xmlAttr, xmlText } from '../../src/report/xml.js';
import { checkXml } from './xml-check.js';

describe('xml escaping', () => {
  it('escapes markup in text and also quotes in attributes', () => {
    expect(xmlText(`a<b>&"c'`)).toBe(`a&lt;b&gt;&amp;"c'`);
    expect(xmlAttr(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });

  it('writes characters XML 1.0 cannot carry as \\uXXXX text', () => {
    expect(xmlText('x\u0001y\u001fz\uffff')).toBe('x\\u0001y\\u001fz\\uffff');
    expect(xmlAttr('\u000b')).toBe('\\u000b');
  });

  it('keeps newlines and tabs of attributes as references (a parser would make them spaces)', () => {
    expect(xmlAttr('a\nb\tc')).toBe('a&#10;b&#9;c');
    expect(xmlText('a\nb\tc')).toBe('a\nb\tc');
  });

  it('the test report uses it: a control character in a config problem is shown, the XML stays well-formed', () => {
    const xml = renderConfigErrorJunit('bad\u0007 value <here>', 'invalid\nconfig');
    const error = checkXml(xml).children[0]!.children[0]!.children[0]!;
    expect(error.name).toBe('error');
    expect(error.text).toBe('bad\\u0007 value <here>');
    expect(error.attrs.message).toBe('invalid\nconfig');
  });
});
