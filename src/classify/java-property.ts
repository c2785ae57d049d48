// \p{Name} / \P{Name}. Only the POSIX names are ASCII in Java (without UNICODE_CHARACTER_CLASS) and
// so reproducible exactly; Unicode properties depend on the JDK's Unicode tables and Java's own
// definitions (javaLowerCase, IsAlphabetic...), so they are reported as not faithfully evaluable.
import * as cs from './charset.js';
import type { CharSet } from './charset.js';
import type { ParserState } from './java-class.js';

const ALPHA = cs.union(cs.range(0x41, 0x5a), cs.range(0x61, 0x7a));
const PUNCT = cs.union(cs.range(0x21, 0x2f), cs.range(0x3a, 0x40), cs.range(0x5b, 0x60), cs.range(0x7b, 0x7e));

function posix(name: string, caseInsensitive: boolean): CharSet | undefined {
  switch (name) {
    case 'ASCII': return cs.range(0, 0x7f);
    case 'Alnum': return cs.union(ALPHA, cs.DIGIT);
    case 'Alpha': return ALPHA;
    case 'Blank': return cs.ofChars(' \t');
    case 'Cntrl': return cs.union(cs.range(0, 0x1f), cs.single(0x7f));
    case 'Digit': return cs.DIGIT;
    case 'Graph': return cs.range(0x21, 0x7e);
    // Java's CharPredicates.forProperty: under CASE_INSENSITIVE, Lower and Upper mean Alpha.
    case 'Lower': return caseInsensitive ? ALPHA : cs.range(0x61, 0x7a);
    case 'Upper': return caseInsensitive ? ALPHA : cs.range(0x41, 0x5a);
    case 'Print': return cs.range(0x20, 0x7e);
    case 'Punct': return PUNCT;
    case 'Space': return cs.SPACE;
    case 'XDigit': return cs.union(cs.DIGIT, cs.range(0x41, 0x46), cs.range(0x61, 0x66));
    case 'L1': return cs.range(0, 0xff);
    case 'all': return cs.ANY;
    default: return undefined;
  }
}

const CATEGORIES = new Set(
  'L Lu Ll Lt Lm Lo LC LD M Mn Mc Me N Nd Nl No Z Zs Zl Zp C Cc Cf Co Cs Cn P Pd Ps Pe Pc Po Pi Pf S Sm Sc Sk So'.split(' '),
);

function isUnicodeProperty(name: string): boolean {
  return CATEGORIES.has(name) || /^(Is|In|java)[A-Za-z]/.test(name) || name.includes('=');
}

/** After `\p` / `\P`: `{Name}` or a one-letter name. */
export function property(p: ParserState, complement: boolean, k: number): CharSet {
  let name = '';
  if (p.peek() === 0x7b /* { */) {
    p.k++;
    while (p.peek() !== -1 && p.peek() !== 0x7d /* } */) { name += String.fromCodePoint(p.peek()); p.k++; }
    if (p.peek() === -1) p.error('Unclosed character family', k);
    p.k++;
  } else {
    if (p.peek() === -1) p.error('Illegal character family', k);
    name = String.fromCodePoint(p.peek());
    p.k++;
  }
  if (name === '') p.error('Empty character family', k);
  const set = posix(name, p.flags.i);
  if (set) return complement ? cs.negate(set) : set;
  if (isUnicodeProperty(name)) {
    p.warn(
      'regex.unicode-property',
      `\\${complement ? 'P' : 'p'}{${name}} depends on Java's Unicode tables and cannot be evaluated faithfully; use an explicit class such as [a-z] or \\p{Alpha}`,
      k,
    );
    return cs.ANY;
  }
  p.error(`Unknown character property name {${name}}`, k);
}
