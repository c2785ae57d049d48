import { describe, it } from 'vitest';
import { renderDriftMarkdown } from '../../src/report/drift-markdown.js';
import { renderDriftText } from '../../src/report/drift-text.js';
import { renderPlanMarkdown } from '../../src/report/plan-markdown.js';
import { renderPlanText } from '../../src/report/plan-text.js';
import { expectGolden } from './golden.js';
import { emptyPlan, samplePlan } from './sample-plan.js';
import { inSyncDrift, sampleDrift } from './sample-drift.js';

describe('golden renderings (read and approved; see golden/)', () => {
  it('plan text', () => expectGolden('plan.txt', renderPlanText(samplePlan(), { color: false, width: 100 })));
  it('plan text, no changes', () => expectGolden('plan-empty.txt', renderPlanText(emptyPlan(), { color: false, width: 100 })));
  it('plan markdown', () => expectGolden('plan.md', renderPlanMarkdown(samplePlan())));
  it('drift text', () => expectGolden('drift.txt', renderDriftText(sampleDrift(), { color: false, width: 100 })));
  it('drift text, in sync', () => expectGolden('drift-in-sync.txt', renderDriftText(inSyncDrift(), { color: false })));
  it('drift markdown', () => expectGolden('drift.md', renderDriftMarkdown(sampleDrift())));
});
