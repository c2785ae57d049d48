// \p{Name} / \P{Name}, resolved with Java 17's own tables (java-unicode.ts): a name Java rejects is
// the compile error Java reports, and a name it accepts is the exact set of code points Java 17
// matches with the current flags (CASE_INSENSITIVE changes \p{Lower}, \p{Lu}, \p{javaLowerCase}...).
import * as cs from './charset.js';
import type { CharSet } from './charset.js';
import type { ParserState } from './java-parser-state.js';
import { javaProperty } from './java-unicode.js';

/** After `\p` / `\P`: `{Name}` or a one-letter name. */
export function property(p: ParserState, complement: boolean, k: number): CharSet {
  let name = '';
  if (p.peek() === 0x7b /* { */) {
    p.k++;
    const start = p.k;
    while (p.peek() !== -1 && p.peek() !== 0x7d /* } */) p.k++;
    if (p.peek() === -1) p.error('Unclosed character family', k);
    // Raw text up to the `}`: in comments mode Java skips whitespace only to find it.
    name = String.fromCodePoint(...p.src.cps.slice(start, p.k));
    p.k++;
  } else {
    if (p.peek() === -1) p.error('Illegal character family', k);
    name = String.fromCodePoint(p.peek());
    p.k++;
  }
  if (name === '') p.error('Empty character family', k);
  const found = javaProperty(name, p.flags.i);
  if (!found.ok) p.error(`${found.description}: Java 17 knows no such property, script or block; see docs/regex.md`, k);
  return complement ? cs.negate(found.set) : found.set;
}
