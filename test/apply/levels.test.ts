// Apply's levels are the planner's change classes (rank in src/plan/order.ts).
import { describe, expect, it } from 'vitest';
import { groupByLevel } from '../../src/apply/levels.js';
import { actionAddress, appAddress, parserAddress } from '../../src/model/address.js';
import { archive, createAction, createApp, createParser } from './plan-data.js';

describe('groupByLevel', () => {
  it('runs top-down writes, then parser archives, then action and app archives, each group in plan order', () => {
    const changes = [
      archive('action', actionAddress('Old'), 'o1'),
      createParser('A', 'p'),
      archive('parser', parserAddress('A', 'q'), '9', actionAddress('A')),
      createApp('com.a'),
      createAction('A'),
      archive('app', appAddress('com.old'), 'z1'),
    ];
    expect(groupByLevel(changes)).toEqual([[3, 4], [1], [2], [0, 5]]);
  });

  it('leaves out levels with nothing in them', () => {
    expect(groupByLevel([archive('action', actionAddress('Old'), 'o1'), createAction('A')])).toEqual([[1], [0]]);
  });
});
