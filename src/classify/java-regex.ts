// compileJavaPattern: a Java pattern, as the device runs it (CASE_INSENSITIVE, matches()), turned
// into an equivalent JS RegExp — or the reasons it cannot be (a Java syntax error: the device
// rejects it; or a construct we cannot reproduce exactly: we refuse rather than guess).
import { JavaSyntaxError, type Unfaithful } from './java-ast.js';
import { parseJavaPattern } from './java-parse.js';
import { emitJs } from './java-emit.js';
import { findUnfaithful } from './java-faithful.js';
import type { RegexIssue } from './lint.js';
import type { ParsedPattern } from './java-ast.js';

export type CompiledPattern =
  | {
      ok: true;
      /** Anchored to the whole input: exec() succeeds exactly when Java's matches() would. */
      regex: RegExp;
      /** Named groups, in order of their opening parenthesis. */
      groups: string[];
      /** Non-empty: the regex above is NOT a faithful stand-in; do not use it to decide. */
      unfaithful: { code: string; message: string; index?: number }[];
      parsed: ParsedPattern;
    }
  | { ok: false; issues: RegexIssue[] };

const cache = new Map<string, CompiledPattern>();
const CACHE_LIMIT = 5000;

export function compileJavaPattern(pattern: string): CompiledPattern {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const compiled = compileUncached(pattern);
  // Configs are bounded; the limit only keeps a long-lived process from growing without end.
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

function compileUncached(pattern: string): CompiledPattern {
  let parsed: ParsedPattern;
  try {
    parsed = parseJavaPattern(pattern);
  } catch (e) {
    if (!(e instanceof JavaSyntaxError)) throw e;
    return {
      ok: false,
      issues: [{
        severity: 'error',
        code: e.code,
        message: `does not compile in Java: ${e.description} (at index ${e.index})`,
        index: e.index,
      }],
    };
  }
  const unfaithful: Unfaithful[] = [...parsed.unfaithful, ...findUnfaithful(parsed.root, parsed.groupCount)];
  const { source } = emitJs(parsed.root);
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'u');
  } catch (e) {
    // A translation bug, not the user's: say so and refuse to evaluate.
    unfaithful.push({ code: 'regex.internal', message: `menuctl could not translate this pattern (${(e as Error).message})`, index: 0 });
    regex = /(?!)/u;
  }
  return { ok: true, regex, groups: parsed.groups.map((g) => g.name), unfaithful, parsed };
}

/** The named groups that took part in a successful match (Java's group(name) is null otherwise). */
export function namedValues(match: RegExpExecArray, groups: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of groups) {
    const v = match.groups?.[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}
