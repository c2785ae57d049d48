// menuctl's own sentences in markdown (issue 34 item 5): backtick-quoted commands read as code,
// not as `&#96;`, and the sentence stays inert whatever names it quotes.
import { describe, expect, it } from 'vitest';
import { mdProse, warningsList } from '../../src/report/markdown-util.js';
import { renderDriftMarkdown } from '../../src/report/drift-markdown.js';
import { warning } from '../../src/model/diagnostic.js';
import { sampleDrift } from './sample-drift.js';

describe('mdProse', () => {
  it.each([
    ['pin them with `id:` first', 'pin them with <code>id:</code> first'],
    ["adopt it: `menuctl import 'app[\"com.a\"]' ID`.", "adopt it: <code>menuctl import 'app[\"com.a\"]' ID</code>."],
    ['no quotes at all', 'no quotes at all'],
    ['one ` unpaired', 'one &#96; unpaired'],
    ['`a` and ` b', '<code>a</code> and &#96; b'],
  ])('%s', (text, md) => {
    expect(mdProse(text)).toBe(md);
  });

  it('a name that brings its own backticks, HTML, links or mentions stays inert', () => {
    const md = mdProse('the create of action["x`<img src=y>`](http://e) @team"] was lost: `menuctl plan`');
    expect(md).not.toMatch(/<img|\]\(|@team/);
    expect(md).not.toMatch(/`/);
    expect(md).toContain('<code>menuctl plan</code>');
  });
});

describe('warnings in markdown reports', () => {
  it('show no &#96; for the backticks of menuctl\'s own warnings', () => {
    const w = warning('plan.create-in-flight', 'If it exists, adopt it: `menuctl import \'app["com.a"]\' ID`.');
    expect(warningsList([w])).toBe('**Warnings**\n\n- ⚠️ If it exists, adopt it: <code>menuctl import \'app["com.a"]\' ID</code>.');
    const md = renderDriftMarkdown({ ...sampleDrift(), warnings: [w] });
    expect(md).toContain('<code>menuctl import');
    expect(md).not.toContain('&#96;');
  });

  it('plan markdown (the PR comment) too', async () => {
    const { warningsMd } = await import('../../src/report/plan-markdown.js');
    const w = warning('plan.app-create-unverifiable', 'pin it with `id:` or adopt it with `menuctl import \'app["com.a"]\' ID` first');
    const md = warningsMd([w]);
    expect(md).toContain('<code>id:</code>');
    expect(md).toContain('<code>menuctl import');
    expect(md).not.toContain('&#96;');
  });
});
