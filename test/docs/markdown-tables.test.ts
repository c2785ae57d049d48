// Every table in the README and docs/ has its header and separator rows (issue 34 item 5: the
// README's second Connecting table had none, so GitHub rendered its rows as one paragraph).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = ['README.md', 'examples/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Tables (runs of `|` lines outside fenced code) whose second line is not a separator row. */
function headerless(text: string): number[] {
  const bad: number[] = [];
  const lines = text.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i += 1) {
    if (/^\s*```/.test(lines[i]!)) fenced = !fenced;
    if (fenced || !lines[i]!.startsWith('|') || lines[i - 1]?.startsWith('|')) continue;
    if (!/^\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1] ?? '')) bad.push(i + 1);
  }
  return bad;
}

describe('markdown tables', () => {
  it.each(FILES)('%s: every table starts with a header and a separator row', (file) => {
    expect(headerless(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('finds a table without a header', () => {
    expect(headerless('| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n| 5 | 6 |\n')).toEqual([5]);
  });
});
