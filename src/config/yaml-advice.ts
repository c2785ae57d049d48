// First-day YAML mistakes, told by their cause and fix rather than by the parser's symptom:
// an unquoted USSD code (`*144#` reads as an alias, `#144#` as a comment), an unclosed quote
// (located where it opens, not at the end of the file), tabs as indentation, and `key:value`
// without the space YAML needs after the colon.

import type { YAMLError } from 'yaml';
import { yamlLib } from './yaml-lib.js';

export interface Advice {
  message: string;
  /** Where to point instead of the parser's position, when that is not where the fix goes. */
  offset?: number;
}

/** `*144#`, `*544*1#`: what a USSD code looks like once the leading `*` is taken as an alias. */
const USSD_ALIAS = /^[\d*#]*\d[\d*#]*$/;

/** The alias name of `*144#` looks like the rest of a USSD code. */
export function ussdAliasAdvice(aliasName: string, key: string | undefined): string | undefined {
  if (!USSD_ALIAS.test(aliasName)) return undefined;
  const k = key ?? 'root_code';
  return `\`*${aliasName}\` must be quoted: YAML reads a value starting with * as an alias. Write \`${k}: "*${aliasName}"\` (quote every USSD code).`;
}

/** A null value whose line shows `key: #...`: the author wrote a code, YAML saw a comment. */
export function commentValueAdvice(line: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|[\\s{,])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\s+(#\\S*)`).exec(line);
  if (!m) return undefined;
  return `\`${key}\` is empty because # starts a comment in YAML, so \`${m[1]}\` was ignored. Quote it: \`${key}: "${m[1]}"\`.`;
}

function lineAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end);
}

/** Offset of the opening quote of the quoted scalar that runs to the end of the file. */
function unclosedQuote(text: string): number | undefined {
  let found: number | undefined;
  const visit = (node: unknown, depth: number): void => {
    if (found !== undefined || !node || typeof node !== 'object' || depth > 200) return;
    const t = node as { type?: string; offset?: number; source?: string };
    if ((t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') && typeof t.offset === 'number' && !closed(t.source ?? '')) {
      found = t.offset;
      return;
    }
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
      else if (v && typeof v === 'object') visit(v, depth + 1);
    }
  };
  for (const doc of new (yamlLib().Parser)().parse(text)) visit(doc, 0);
  return found;
}

/** Whether a quoted scalar's source ends with its closing quote. */
function closed(source: string): boolean {
  const q = source[0];
  const body = source.trimEnd();
  if (body.length < 2 || body[body.length - 1] !== q) return false;
  if (q === "'") return (body.slice(1).match(/'/g)?.length ?? 0) % 2 === 1;
  let backslashes = 0;
  for (let i = body.length - 2; i > 0 && body[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

/** Advice for a `yaml` parse error, or undefined to keep the parser's own message. */
export function yamlErrorAdvice(e: YAMLError, text: string): Advice | undefined {
  if (e.code === 'MISSING_CHAR' && /quote/.test(e.message)) {
    const offset = unclosedQuote(text);
    const q = offset !== undefined ? text[offset] : '"';
    return { offset, message: `this ${q === "'" ? 'single' : 'double'} quote is never closed, so the value runs to the end of the file. Add the closing ${q} at the end of the value.` };
  }
  if (/Maximum call stack size exceeded/.test(e.message)) {
    return { message: 'values are nested hundreds of levels deep from here on, deeper than a YAML reader can follow; a menuctl config needs about five levels. Flatten this value.' };
  }
  if (e.code === 'TAB_AS_INDENT') {
    return { message: 'this line is indented with a tab; YAML indents with spaces only. Replace the tab with spaces (set your editor to insert spaces).' };
  }
  const line = lineAt(text, e.pos[0]);
  const glued = /^\s*(?:-\s+)?([A-Za-z_][\w-]*):([^\s:/].*)$/.exec(line);
  if (glued) {
    return { message: `\`${glued[1]}:${glued[2]!.trim()}\` has no space after the colon, so YAML does not read it as a key. Write \`${glued[1]}: ${glued[2]!.trim()}\`.` };
  }
  return undefined;
}
