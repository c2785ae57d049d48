import { describe, expect, it } from 'vitest';
import { serializePlan as renderPlanJson } from '../../src/plan/plan-file.js';
import { evaluateSafety } from '../../src/plan/safety.js';
import { PLAN_MARKER, renderPlanMarkdown } from '../../src/report/plan-markdown.js';
import { renderPlanText } from '../../src/report/plan-text.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { emptyPlan, samplePlan } from './sample-plan.js';

const ESC = '\x1b[';

describe('renderPlanText', () => {
  it('writes no ANSI codes without colour, and colours ops with it', () => {
    expect(renderPlanText(samplePlan(), { color: false })).not.toContain(ESC);
    const colored = renderPlanText(samplePlan(), { color: true });
    expect(colored).toContain(`${ESC}32m+ create `); // green create
    expect(colored).toContain(`${ESC}33m~ update `); // yellow update
    expect(colored).toContain(`${ESC}31m- archive`); // red archive
    expect(colored).toContain(`${ESC}36m↺ restore`); // cyan restore
  });

  it('ends with the counts, or says there is nothing to do', () => {
    expect(renderPlanText(samplePlan(), { color: false }).trimEnd().split('\n').at(-1))
      .toBe('Plan: 2 to create, 3 to update, 1 to archive, 1 to restore.');
    expect(renderPlanText(emptyPlan(), { color: false }).trimEnd().split('\n').at(-1))
      .toBe('No changes. The live API matches the configuration.');
  });

  it('shows a short scalar inline and the same value as a block when the width is too small', () => {
    const wide = renderPlanText(samplePlan(), { color: false, width: 120 });
    expect(wide).toContain('~ root_code: "*144#" -> "*144*1#"');
    const narrow = renderPlanText(samplePlan(), { color: false, width: 30 });
    expect(narrow).not.toContain('-> "*144*1#"');
    expect(narrow).toMatch(/~ root_code:\n\s+- "\*144#"\n\s+\+ "\*144\*1#"\n/);
  });

  it('diffs a multi-line value line by line', () => {
    const plan = emptyPlan();
    const change: Change = {
      op: 'update', type: 'parser', id: '1', address: 'action["A"].parser["b"]', fingerprint: 'f',
      parent: 'action["A"]', action_id: 'a',
      fields: [{ path: 'user_message', before: 'Hello\nyour balance\nbye', after: 'Hello\nyour new balance\nbye' }],
      desired: { category: 'b', status: 'failed', target_type: 'ussd', sender: null, regex: 'x', user_message: '' },
    };
    plan.changes = [change];
    plan.summary.update = 1;
    const text = renderPlanText(plan, { color: false });
    expect(text).toContain(['      ~ user_message:', '            Hello', '          - your balance', '          + your new balance', '            bye'].join('\n'));
  });

  it('collapses long unchanged runs in a list diff', () => {
    const plan = emptyPlan();
    const before = Array.from({ length: 12 }, (_, i) => String(i));
    plan.changes = [{
      op: 'update', type: 'action', id: '1', address: 'action["Long"]', fingerprint: 'f',
      fields: [{ path: 'steps', before, after: [...before.slice(0, 11), '99'] }],
      desired: { name: 'Long', root_code: '*1#', transport_type: 'ussd', operator_ids: [], steps: [] },
    }];
    const text = renderPlanText(plan, { color: false });
    expect(text).toContain('… 9 unchanged');
    expect(text).toMatch(/- "11"\n\s+\+ "99"/);
  });

  it('marks the differing span of a long single-line value with carets', () => {
    const text = renderPlanText(samplePlan(), { color: false, width: 100 });
    const lines = text.split('\n');
    const plus = lines.findIndex((l) => l.includes('+ "Your (?:account'));
    const caret = lines[plus + 1]!;
    const start = caret.indexOf('^');
    expect(lines[plus]!.slice(start, start + caret.trim().length)).toBe('? ?(?:Thank you.*)?');
  });

  it("shows a created action's steps from a saved plan escaped: a line break or escape in one draws nothing", () => {
    const plan = emptyPlan();
    plan.changes = [{
      op: 'create', type: 'action', id: null, address: 'action["A"]', fingerprint: null,
      fields: [{ path: 'steps', before: null, after: ['x', '1'] }],
      desired: {
        name: 'A', root_code: '*1#', transport_type: 'ussd', operator_ids: [],
        // plan.schema.json leaves a step's name and value any string: a saved plan is what is shown.
        steps: [{ kind: 'variable', name: 'x\n      + pin\x1b[8m' }, { kind: 'press', value: '1', expect: 'a\\d\tb' }],
      },
    }];
    plan.summary.create = 1;
    const text = renderPlanText(plan, { color: false });
    expect(text).not.toContain('\x1b');
    expect(text.split('\n').filter((l) => l.includes('+ pin'))).toEqual(['          + variable x\\n      + pin\\u001b[8m']);
    for (const out of [text, renderPlanMarkdown(plan)]) {
      expect(out).toContain('variable x\\n      + pin\\u001b[8m');
      // As every other string: read as written (a backslash not doubled), control characters escaped.
      expect(out).toContain('press 1 (expect "a\\d\\tb")');
    }
  });

  it('lists unmanaged resources as left alone unless pruning', () => {
    expect(renderPlanText(samplePlan(), { color: false })).toContain('Unmanaged (not in the configuration; left alone, archived only with --prune):');
  });
});

describe('renderPlanJson', () => {
  it('puts the contract keys first, in order, with 2-space indent', () => {
    const json = renderPlanJson(samplePlan());
    const parsed = JSON.parse(json) as Record<string, unknown> & { changes: Record<string, unknown>[] };
    expect(Object.keys(parsed).slice(0, 3)).toEqual(['format_version', 'changes', 'summary']);
    expect(Object.keys(parsed.changes[0]!).slice(0, 5)).toEqual(['op', 'type', 'address', 'id', 'fields']);
    expect(parsed.summary).toEqual({ create: 2, update: 3, archive: 1, restore: 1 });
    expect(json.split('\n')[1]).toBe('  "format_version": 1,');
  });

  it('keeps what apply needs and is the same for the same plan', () => {
    const parsed = JSON.parse(renderPlanJson(samplePlan())) as Plan;
    const parser = parsed.changes.find((c) => c.address === 'action["Buy bundle"].parser["bought"]')!;
    expect(parser).toMatchObject({ parent: 'action["Buy bundle"]', action_id: null, fingerprint: null });
    expect(parsed.config_digest).toBe('c0ffee00c0ffee00');
    // A saved --resend plan must still re-send: apply reads `forced`, not the reason text.
    expect(parsed.changes.find((c) => c.address === 'action["Send money"]')).toMatchObject({ forced: true });
    expect(renderPlanJson(samplePlan())).toBe(renderPlanJson(samplePlan()));
  });

  it('never writes a secret-named key even if one was put into a plan', () => {
    const plan = samplePlan();
    Object.assign((plan.changes[5] as { desired: object }).desired, { token: 'tok-SECRET', webhook_secret: 'whs-SECRET' });
    expect(renderPlanJson(plan)).not.toContain('SECRET');
  });
});

describe('renderPlanMarkdown', () => {
  it('starts with the marker and holds a summary table and a diff per change', () => {
    const md = renderPlanMarkdown(samplePlan());
    expect(md.split('\n')[0]).toBe(PLAN_MARKER);
    expect(md).toContain('| 2 | 3 | 1 | 1 |');
    // A diff per change, and a flowchart per changed action (3 of them).
    expect(md.match(/<details>/g)).toHaveLength(10);
    expect(md.match(/```diff/g)).toHaveLength(7);
    expect(md.match(/```mermaid/g)).toHaveLength(3);
  });

  it('truncates whole changes to fit, and says how many were left out', () => {
    const full = renderPlanMarkdown(samplePlan());
    const md = renderPlanMarkdown(samplePlan(), { maxChars: 2500 });
    expect(md.length).toBeLessThanOrEqual(2500);
    expect(md.length).toBeLessThan(full.length);
    const shown = md.match(/<details>/g)?.length ?? 0;
    expect(md.match(/<\/details>/g)?.length ?? 0).toBe(shown);
    expect(md.match(/^```/gm)!.length % 2).toBe(0);
    expect(md).toContain(`${7 - shown} changes left out to keep this comment under 2500 characters. See the CI log for the full plan.`);
    expect(md.trimEnd().split('\n').at(-1)).toBe('**Plan: 2 to create, 3 to update, 1 to archive, 1 to restore.**');
  });

  it('stays under 60,000 characters for a very large plan', () => {
    const plan = samplePlan();
    const one = plan.changes[3]!;
    plan.changes = Array.from({ length: 2000 }, (_, i) => ({ ...one, address: `action["A${i}"].parser["balance"]` }));
    const md = renderPlanMarkdown(plan);
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md).toMatch(/\d+ changes left out/);
  });

  it('escapes HTML in addresses and uses a fence longer than any backticks in values', () => {
    const plan = emptyPlan();
    plan.changes = [{
      op: 'update', type: 'parser', id: '1', address: 'action["<b>A&B</b>"].parser["x"]', fingerprint: 'f',
      parent: 'action["<b>A&B</b>"]', action_id: 'a',
      fields: [{ path: 'regex', before: 'a```b', after: 'c' }],
      desired: { category: 'x', status: 'failed', target_type: 'ussd', sender: null, regex: 'c', user_message: '' },
    }];
    plan.summary.update = 1;
    const md = renderPlanMarkdown(plan);
    expect(md).toContain('<code>action["&lt;b&gt;A&amp;B&lt;/b&gt;"].parser["x"]</code>');
    expect(md).toContain('````diff\n');
  });
});

describe('archive thresholds in the rendered plan', () => {
  /** The sample plan with its one archive judged against `managed` resources and limits of 0 archives / 10%. */
  const judged = (managed: number, force: boolean): Plan => {
    const plan = samplePlan();
    plan.safety = evaluateSafety(plan.changes, { maxArchive: 0, maxArchivePercent: 10, managedCount: managed }, { force });
    return plan;
  };

  it('says apply will refuse, beside the summary line and at the top of the comment', () => {
    const refusal = 'apply will refuse: 1 of 4 managed resources archived (25%) > 10%: pass --force after review';
    const text = renderPlanText(judged(4, false), { color: false }).split('\n');
    expect(text.slice(-4)).toEqual([`✗ ${refusal}`, '', 'Plan: 2 to create, 3 to update, 1 to archive, 1 to restore.', '']);
    const md = renderPlanMarkdown(judged(4, false));
    expect(md.indexOf('[!CAUTION]')).toBeLessThan(md.indexOf('<details>'));
    expect(md).toContain(`> ${refusal.replace('>', '&gt;')}`);
  });

  it('says --force acknowledged it instead, and nothing at all within the limits', () => {
    expect(renderPlanText(judged(4, true), { color: false })).toContain(
      '! --force acknowledged: apply will archive 1 of 4 managed resources (25%), over the limits (more than 0 and more than 10%)');
    expect(renderPlanMarkdown(judged(4, true))).toContain('> [!WARNING]\n> --force acknowledged');
    expect(renderPlanText(judged(20, false), { color: false })).not.toMatch(/apply will|acknowledged/);
    expect(renderPlanMarkdown(judged(20, false))).not.toMatch(/CAUTION|acknowledged/);
  });
});
