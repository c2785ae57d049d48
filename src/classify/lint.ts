// The regex dialect lint run by `menuctl validate` on every parser: what the device (Java,
// CASE_INSENSITIVE, matches()) will do with the pattern. Errors: the device cannot compile it.
// Warnings: `menuctl test` cannot evaluate it faithfully, it may backtrack catastrophically, or a
// part of it is useless under matches(). See docs/regex.md.
import type { Node } from './java-ast.js';
import { findBacktracking, POLICIES } from './backtracking.js';
import { analyzeJavaPattern, isStackOverflow, tooDeep } from './java-regex.js';

export interface RegexIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** Offset in the pattern the issue points at, when known. */
  index?: number;
}

/**
 * Works on the parsed tree only: no JS RegExp is built (see compileJavaPattern for that).
 * channel: the parser's target_type, which bounds the reply's length for the backtracking policy
 * (default sms, the longer one).
 */
export function lintRegex(pattern: string, options: { channel?: 'ussd' | 'sms' } = {}): RegexIssue[] {
  const analyzed = analyzeJavaPattern(pattern);
  if (!analyzed.ok) return analyzed.issues.map((i) => ({ ...i }));
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
  return issues.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
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
