// XML escaping for the JUnit reports (`test --format junit`, `drift --format junit`), so both
// treat awkward characters the same way.

/**
 * XML 1.0 cannot carry most control characters even as character references; they are written
 * as `\uXXXX` text, so the reader still sees which character it was (docs/output.md).
 */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function legal(s: string): string {
  return s.replace(ILLEGAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Element content. */
export function xmlText(s: string): string {
  return legal(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A quoted attribute value. Newlines and tabs become references: a parser would turn them into spaces. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
