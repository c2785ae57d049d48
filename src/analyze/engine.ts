// The `menuctl test` engine (the JS stand-in for the Java pattern, run in the time-limited
// sandbox) as the judge of every witness: analyze prints a message only once this engine, built
// independently of the automata, agrees that each parser matches it.
import { compileJavaPattern } from '../classify/java-regex.js';
import { replyObstacle } from '../classify/reply-checks.js';
import { RegexSandbox } from '../classify/sandbox.js';

/** Budget per batch of checks: a witness is short, so only a pathological pattern gets near it. */
const TIMEOUT_MS = 1000;

type CompiledOk = Extract<ReturnType<typeof compileJavaPattern>, { ok: true }>;

export type EngineVerdict = { kind: 'matched'; text: string } | { kind: 'none' } | { kind: 'unverifiable'; reason: string };

export class Engine {
  private readonly sandbox = new RegexSandbox(TIMEOUT_MS);

  /** Why the engine cannot judge this pattern, or null. */
  unverifiable(pattern: string): string | null {
    const c = compileJavaPattern(pattern);
    if (!c.ok) return c.issues.map((i) => i.message).join('; ');
    if (c.unfaithful.length > 0) return `menuctl test cannot evaluate it faithfully (${c.unfaithful.map((u) => u.message).join('; ')})`;
    return null;
  }

  /** The first candidate that every pattern matches as a whole message. */
  async firstMatchingAll(candidates: readonly string[], patterns: readonly string[]): Promise<EngineVerdict> {
    for (const p of patterns) {
      const why = this.unverifiable(p);
      if (why) return { kind: 'unverifiable', reason: why };
    }
    const compiled = patterns.map((p) => compileJavaPattern(p) as CompiledOk);
    // A message the test engine would refuse for a pattern (a \b next to a letter only newer
    // Unicode has, a look-behind over an emoji) is no proof: `menuctl test` would not judge it.
    const judged = candidates.filter((text) => compiled.every((c) => replyObstacle(c.needs, text) === null));
    if (judged.length === 0) return { kind: 'none' };
    const jobs = judged.flatMap((text) => compiled.map((c) => ({ source: c.regex.source, text, groups: [] })));
    const batch = await this.sandbox.run(jobs);
    if (!batch.ok) return { kind: 'unverifiable', reason: `the test engine timed out after ${TIMEOUT_MS} ms (catastrophic backtracking?)` };
    for (let i = 0; i < judged.length; i++) {
      const row = batch.results.slice(i * patterns.length, (i + 1) * patterns.length);
      if (row.every((r) => r !== null)) return { kind: 'matched', text: judged[i]! };
    }
    return { kind: 'none' };
  }

  /** Which of the patterns match the text (null: that pattern cannot be judged). */
  async matches(text: string, patterns: readonly string[]): Promise<(boolean | null)[] | null> {
    const runnable = patterns.map((p) => {
      if (this.unverifiable(p)) return null;
      const c = compileJavaPattern(p) as CompiledOk;
      return replyObstacle(c.needs, text) === null ? c.regex.source : null;
    });
    const jobs = runnable.flatMap((source) => (source === null ? [] : [{ source, text, groups: [] }]));
    const batch = await this.sandbox.run(jobs);
    if (!batch.ok) return null;
    let k = 0;
    return runnable.map((source) => (source === null ? null : batch.results[k++] !== null));
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}
