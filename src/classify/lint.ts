// The regex dialect lint run by `menuctl validate` on every parser: what the device (Java,
// CASE_INSENSITIVE, matches()) will do with the pattern. Errors: the device cannot compile it.
// Warnings: `menuctl test` cannot evaluate it faithfully, it may backtrack catastrophically, or a
// part of it is useless under matches(). See docs/regex.md.
import type { Node } from './java-ast.js';
import { findBacktracking, POLICIES } from './backtracking.js';
import { analyzeJavaPattern, isStackOverflow, tooDeep } from './java-regex.js';
import type { RegexIssue } from './regex-issue.js';

export type { RegexIssue };

/**
 * Works on the parsed tree only: no JS RegExp is built (see compileJavaPattern for that).
 * channel: the parser's target_type, which bounds the reply's length for the backtracking policy
 * (default sms, the longer one).
 */
export function lintRegex(pattern: string, options: { channel?: 'ussd' | 'sms' } = {}): RegexIssue[] {
  const dialect = otherDialects(pattern);
  const analyzed = analyzeJavaPattern(pattern);
  if (!analyzed.ok) return [...dialect, ...analyzed.issues.map((i) => ({ ...i }))];
  const lints = lintParsed(analyzed, pattern, options);
  return [...dialect, ...lints].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
}

/**
 * Other dialects' syntax that Java compiles to something else, so validate passes it and the
 * parser silently never matches: a JavaScript literal `/.../flags` is matched as
 * literal slashes; a POSIX class `[[:alpha:]]` is Java's nested class, one of `:`, `a`, `l`, `p`,
 * `h`; and an inline flag group after the start applies only from there on in Java.
 */
function otherDialects(pattern: string): RegexIssue[] {
  const out: RegexIssue[] = [];
  const literal = /^\/(.+)\/([dgimsuyv]*)$/s.exec(pattern);
  if (literal) {
    out.push({
      severity: 'warning', code: 'regex.javascript-literal', index: 0,
      message: `this is a JavaScript regex literal: Java reads the slashes${literal[2] ? ` and "${literal[2]}"` : ''} as text to match, so it never matches a reply; ` +
        `write the pattern alone (${JSON.stringify(literal[1])}); the device already matches case-insensitively${literal[2]?.includes('i') ? ', so /i is not needed' : ''}`,
    });
  }
  for (const m of pattern.matchAll(/\[:(\^?)([a-z]+):\]/g)) {
    if (m.index > 0 && pattern[m.index - 1] === '\\') continue;
    const java = POSIX_CLASSES[m[2]!];
    out.push({
      severity: 'warning', code: 'regex.posix-class', index: m.index,
      message: `[:${m[2]}:] is a POSIX class, which Java does not have: inside [...] it matches one of the characters ":${[...new Set(m[2])].join('')}"; ` +
        (java ? `write ${m[1] ? java.replace(/^\\p/, '\\P') : java} (Java)` : 'use a Java class such as \\p{Alpha}'),
    });
  }
  // Only a top-level group that turns flags on at the end of the pattern (or of an alternative):
  // Python before 3.11 applies it to the whole pattern there, Java to nothing. Mid-pattern uses
  // (`a(?s).*`, `a(?-i)b`) are ordinary Java and stay quiet.
  for (const m of pattern.matchAll(/\(\?([a-zA-Z]+)\)/g)) {
    if (m.index === 0 || pattern[m.index - 1] === '\\' || depthAt(pattern, m.index) !== 0) continue;
    const after = m.index + m[0].length;
    if (after < pattern.length && pattern[after] !== '|') continue;
    out.push({
      severity: 'warning', code: 'regex.inline-flags-position', index: m.index,
      message: `${m[0]} at the end applies to nothing in Java: a flag group applies only to what follows it (Python reads one anywhere as for the whole pattern); ` +
        `move it to the start, or use a scoped group (?${m[1]}:...)` + (/i/.test(m[1]!) ? '; the device already matches case-insensitively, so (?i) can go' : ''),
    });
  }
  return out;
}

/** Group nesting at an offset (escapes, \Q...\E and character classes skipped); -1 when inside a class. */
function depthAt(pattern: string, at: number): number {
  let depth = 0;
  let cls = 0;
  for (let k = 0; k < at; k++) {
    const c = pattern[k];
    if (c === '\\') {
      if (pattern[k + 1] === 'Q') {
        const end = pattern.indexOf('\\E', k + 2);
        if (end === -1 || end >= at) return -1;
        k = end + 1;
      } else k++;
    } else if (c === '[') cls++;
    else if (c === ']' && cls > 0) cls--;
    else if (cls === 0 && c === '(') depth++;
    else if (cls === 0 && c === ')') depth--;
  }
  return cls > 0 ? -1 : depth;
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{Alpha}', digit: '\\d', alnum: '\\p{Alnum}', upper: '\\p{Upper}', lower: '\\p{Lower}', space: '\\s',
  punct: '\\p{Punct}', xdigit: '\\p{XDigit}', word: '\\w', blank: '\\p{Blank}', cntrl: '\\p{Cntrl}', print: '\\p{Print}', graph: '\\p{Graph}',
};

function lintParsed(analyzed: Extract<ReturnType<typeof analyzeJavaPattern>, { ok: true }>, pattern: string, options: { channel?: 'ussd' | 'sms' }): RegexIssue[] {
  const issues: RegexIssue[] = analyzed.unfaithful.map((u) => ({
    severity: 'warning',
    code: u.code,
    message: `menuctl test cannot evaluate this faithfully: ${u.message}`,
    index: u.index,
  }));
  const { root } = analyzed.parsed;
  try {
    for (const f of findBacktracking(root, pattern, POLICIES[options.channel ?? 'sms'])) issues.push({ severity: 'warning', ...f });
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return [tooDeep(pattern)];
  }
  issues.push(...uselessUnderMatches(root));
  return issues;
}

/** Top-level items, looking through a pattern that is one group. */
function topLevel(root: Node): Node[] {
  return root.type === 'seq' ? root.items : [root];
}

function uselessUnderMatches(root: Node): RegexIssue[] {
  const out: RegexIssue[] = [];
  const items = topLevel(root);
  const head = items[0];
  const tail = items[items.length - 1];
  if (head?.type === 'assert' && head.kind === 'begin') {
    out.push({
      severity: 'warning',
      code: 'regex.redundant-anchor',
      index: head.at,
      message: 'the leading anchor is redundant: the device always matches the whole message (Matcher.matches())',
    });
  }
  if (tail && tail !== head && tail.type === 'assert' && (tail.kind === 'dollar' || tail.kind === 'end')) {
    out.push({
      severity: 'warning',
      code: 'regex.redundant-anchor',
      index: tail.at,
      message: 'the trailing anchor is redundant: the device always matches the whole message (Matcher.matches())',
    });
  }
  const lazy = lastLazy(tail);
  if (lazy) {
    out.push({
      severity: 'warning',
      code: 'regex.lazy-at-end',
      index: lazy.at,
      message: 'a lazy quantifier at the very end cannot change a whole-message match: it must consume the rest of the message anyway; write it greedy (e.g. .* instead of .*?)',
    });
  }
  return out;
}

function lastLazy(node: Node | undefined): Node | null {
  if (!node) return null;
  if (node.type === 'quant') return node.mode === 'lazy' ? node : null;
  if (node.type === 'group' && (node.kind === 'capture' || node.kind === 'noncapture')) {
    const items = topLevel(node.body);
    return lastLazy(items[items.length - 1]);
  }
  return null;
}
