// Which comment is the plan comment, per environment, and what an outdated one says.
import { describe, expect, it } from 'vitest';
import { isPlanComment, outdatedBody, planCommentBody } from '../../src/action/comments.js';
import { PLAN_MARKER } from '../../src/report/plan-markdown.js';

const markdown = `${PLAN_MARKER}\n## menuctl plan\n\n1 change.`;

describe('plan comment keys', () => {
  it.each([
    [null, null, true],
    [null, 'staging', false],
    ['staging', 'staging', true],
    ['staging', 'production', false],
    ['staging', null, false],
  ])('a comment for environment %s is the comment of environment %s: %s', (written, wanted, same) => {
    expect(isPlanComment(planCommentBody(markdown, written, 'footer'), wanted)).toBe(same);
  });

  it('a comment that merely mentions the marker later is not ours', () => {
    expect(isPlanComment(`I saw ${PLAN_MARKER} somewhere`, null)).toBe(false);
  });
});

describe('outdated plan comments', () => {
  it('keep the markers first, the warning once, and the earlier plan below it', () => {
    const body = planCommentBody(markdown, 'staging', 'footer');
    const once = outdatedBody(body, 'first failure');
    const twice = outdatedBody(once, 'second failure');
    expect(isPlanComment(twice, 'staging')).toBe(true);
    expect(twice).not.toContain('first failure');
    expect(twice.match(/\[!CAUTION\]/g)).toHaveLength(1);
    expect(twice).toContain('> second failure');
    expect(twice).toContain('## menuctl plan\n\n1 change.');
  });
});
