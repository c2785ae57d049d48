// The fast lint must answer exactly as the straightforward implementation it replaced: for every
// pattern of a corpus (test literals, real parsers, examples, and a seeded random set of Java
// constructs, valid and invalid), the same lint issues (severity, code, message, index, order) and
// the same compiled result (emitted JS source, groups, unfaithful reasons, or errors).
// The expected answers were generated from the old code (baseline/make-lint-baseline.mjs), then
// re-answered on purpose for Java 17 fidelity (issue 15) and the lint policy (issue 11), each diff
// reviewed (docs/regex.md, "What changed").
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lintRegex, type RegexIssue } from '../../src/classify/lint.js';
import { compileJavaPattern } from '../../src/classify/java-regex.js';

interface BaselineCase {
  pattern: string;
  lint: RegexIssue[];
  compile:
    | { ok: true; source: string; flags: string; groups: string[]; unfaithful: { code: string; message: string; index?: number }[] }
    | { ok: false; issues: RegexIssue[] };
}

const baseline = JSON.parse(readFileSync(new URL('./baseline/lint-baseline.json', import.meta.url), 'utf8')) as {
  counts: { total: number; error: number; unfaithful: number; faithful: number; withWarnings: number };
  cases: BaselineCase[];
};

const summary = (pattern: string): BaselineCase['compile'] => {
  const c = compileJavaPattern(pattern);
  return c.ok
    ? { ok: true, source: c.regex.source, flags: c.regex.flags, groups: c.groups, unfaithful: c.unfaithful }
    : { ok: false, issues: c.issues };
};

/** JSON drops `index: undefined`; compare in the same shape (key order does not matter). */
const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('lint and compile agree with the old implementation', () => {
  it('covers errors, unfaithful and faithful patterns and warnings', () => {
    expect(baseline.cases).toHaveLength(baseline.counts.total);
    expect(baseline.counts.error).toBeGreaterThan(500);
    expect(baseline.counts.unfaithful).toBeGreaterThan(200);
    expect(baseline.counts.faithful).toBeGreaterThan(500);
    expect(baseline.counts.withWarnings).toBeGreaterThan(200);
  });

  it('gives identical lint issues on every corpus pattern', () => {
    const wrong = baseline.cases
      .map((c) => ({ pattern: c.pattern, expected: c.lint, actual: plain(lintRegex(c.pattern)) }))
      .filter((c) => !isDeepStrictEqual(c.actual, c.expected));
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('compiles every corpus pattern to the identical JS regex, groups and reasons', () => {
    const wrong = baseline.cases
      .map((c) => ({ pattern: c.pattern, expected: c.compile, actual: plain(summary(c.pattern)) }))
      .filter((c) => !isDeepStrictEqual(c.actual, c.expected));
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('lints the same whether or not the pattern was compiled first', () => {
    const sample = baseline.cases.filter((_, i) => i % 7 === 0);
    for (const c of sample) compileJavaPattern(c.pattern);
    const wrong = sample.filter((c) => !isDeepStrictEqual(plain(lintRegex(c.pattern)), c.lint));
    expect(wrong.map((c) => c.pattern)).toEqual([]);
  });
});
