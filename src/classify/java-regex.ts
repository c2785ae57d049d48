// A Java pattern as the device runs it (CASE_INSENSITIVE, matches()), in two stages:
// - analyzeJavaPattern: parse it like Java (or say why the device rejects it) and find, on the
//   tree, what a JS stand-in could not reproduce. This is all `menuctl validate` needs. Not cached:
//   callers lint each distinct pattern once, and keeping trees alive (then dropping them) costs
//   the garbage collector more than parsing again.
// - compileJavaPattern: translate the tree into an equivalent JS RegExp. Only `menuctl test` pays
//   for it (`new RegExp` alone costs more than the whole analysis), once per distinct pattern.
import { JavaSyntaxError, type ParsedPattern, type Unfaithful } from './java-ast.js';
import { parseJavaPattern } from './java-parse.js';
import { emitJs } from './java-emit.js';
import { findUnfaithful } from './java-faithful.js';
import { linebreakFindings } from './java-linebreak.js';
import { loopFindings } from './java-loop.js';
import type { ReplyNeeds } from './reply-checks.js';
import { BoundedCache } from './bounded-cache.js';
import type { RegexIssue } from './regex-issue.js';

export type AnalyzedPattern =
  | {
      ok: true;
      parsed: ParsedPattern;
      /** Non-empty: a JS translation would NOT be a faithful stand-in. */
      unfaithful: readonly Unfaithful[];
    }
  | { ok: false; issues: RegexIssue[] };

export type CompiledPattern =
  | {
      ok: true;
      /** Anchored to the whole input: exec() succeeds exactly when Java's matches() would. */
      regex: RegExp;
      /** Named groups, in order of their opening parenthesis. */
      groups: string[];
      /** Non-empty: the regex above is NOT a faithful stand-in; do not use it to decide. */
      unfaithful: { code: string; message: string; index?: number }[];
      /** What some replies can still defeat (see replyObstacle). */
      needs: ReplyNeeds;
    }
  | { ok: false; issues: RegexIssue[] };

// Configs are bounded; the limit only keeps a long-lived process from growing without end.
const CACHE_LIMIT = 5000;
const compiled = new BoundedCache<string, CompiledPattern>(CACHE_LIMIT);

export function compileJavaPattern(pattern: string): CompiledPattern {
  return compiled.getOrAdd(pattern, compileUncached);
}

function compileUncached(pattern: string): CompiledPattern {
  const a = analyzeJavaPattern(pattern);
  return a.ok ? translate(a.parsed, a.unfaithful, pattern) : a;
}

export function analyzeJavaPattern(pattern: string): AnalyzedPattern {
  if (pattern.length > MAX_NESTING * 2 && deepestGroup(pattern).depth > MAX_NESTING) return { ok: false, issues: [tooDeep(pattern)] };
  let parsed: ParsedPattern;
  try {
    parsed = parseJavaPattern(pattern);
  } catch (e) {
    if (isStackOverflow(e)) return { ok: false, issues: [tooDeep(pattern)] };
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
  try {
    const unfaithful = parsed.unfaithful.concat(
      findUnfaithful(parsed),
      parsed.linebreak ? linebreakFindings(parsed.root) : [],
      parsed.repeatedGroup ? loopFindings(parsed.root) : [],
    );
    return { ok: true, parsed, unfaithful };
  } catch (e) {
    if (isStackOverflow(e)) return { ok: false, issues: [tooDeep(pattern)] };
    throw e;
  }
}

function translate(parsed: ParsedPattern, analyzed: readonly Unfaithful[], pattern: string): CompiledPattern {
  const unfaithful = [...analyzed];
  let regex: RegExp;
  try {
    regex = new RegExp(emitJs(parsed.root).source, 'u');
  } catch (e) {
    if (isStackOverflow(e)) return { ok: false, issues: [tooDeep(pattern)] };
    // A translation bug, not the user's: say so and refuse to evaluate. (Found only here, so
    // `menuctl test` reports it on the fixture; `validate` does not build the RegExp.)
    unfaithful.push({ code: 'regex.internal', message: `menuctl could not translate this pattern (${(e as Error).message})`, index: 0 });
    regex = /(?!)/u;
  }
  // The tree is not kept: the cache holds up to 5,000 of these, and only the regex is needed.
  const needs = { wordBoundary: parsed.wordBoundary, utf16Lookbehind: parsed.utf16Lookbehind };
  return { ok: true, regex, groups: parsed.groups.map((g) => g.name), unfaithful, needs };
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

/** A RangeError from V8 running out of stack (deep nesting), as opposed to a bug. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/**
 * Groups nested deeper than this are not analysed. Java's own compiler recurses per level too: on
 * a JDK 17 with its default stack, 1,000 nested groups compiled in one run and failed with "Stack
 * overflow during pattern compilation" in another, so whether the device compiles such a pattern
 * depends on its stack, and no answer would be reliable. Real parsers nest a handful of levels.
 * This is a warning, not a compile error, and `menuctl test` refuses the parser rather than guess.
 * (Our analyses also recurse per level: a stack overflow in them, should a shallower pattern
 * still cause one, gives the same warning.)
 */
export const MAX_NESTING = 200;

export function tooDeep(pattern: string): RegexIssue {
  const { depth, index } = deepestGroup(pattern);
  return {
    severity: 'warning',
    code: 'regex.too-deep',
    index,
    message: `groups nested ${depth} deep (the deepest opens at index ${index}), more than the ${MAX_NESTING} levels menuctl analyses: whether Java compiles it depends on the device's stack (JDK 17 overflows at about 1,000 levels), and menuctl test will not evaluate it; flatten the nesting`,
  };
}

/** The deepest group's nesting level and opening index (escapes and classes skipped; a guide only). */
function deepestGroup(pattern: string): { depth: number; index: number } {
  let depth = 0;
  let best = { depth: 0, index: 0 };
  let inClass = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') inClass++;
    else if (c === ']' && inClass > 0) inClass--;
    else if (inClass === 0 && c === '(' && ++depth > best.depth) best = { depth, index: i };
    else if (inClass === 0 && c === ')') depth = Math.max(0, depth - 1);
  }
  return best;
}
