// The saved plan file both ways: what serializePlan writes, parsePlan reads back unchanged;
// whatever does not fit the schema or does not add up is refused, each problem located.
import { describe, expect, it } from 'vitest';
import { parsePlan, PlanFileError, serializePlan } from '../../src/plan/plan-file.js';
import { evaluateSafety } from '../../src/plan/safety.js';
import type { Plan } from '../../src/plan/types.js';
import { samplePlan } from '../report/sample-plan.js';

type Doc = Record<string, unknown> & { changes: Record<string, unknown>[]; summary: Record<string, number> };
const doc = (plan: Plan = samplePlan()): Doc => JSON.parse(serializePlan(plan)) as Doc;

function problems(d: unknown): string[] {
  try {
    parsePlan(typeof d === 'string' ? d : JSON.stringify(d));
  } catch (err) {
    if (err instanceof PlanFileError) return err.problems;
    throw err;
  }
  throw new Error('parsePlan accepted it');
}

describe('serializePlan / parsePlan', () => {
  it('round-trips a plan with every op and kind, safety included', () => {
    const plan = samplePlan();
    plan.safety = evaluateSafety(plan.changes, { maxArchive: 10, maxArchivePercent: 25, managedCount: 20 }, { force: false });
    const text = serializePlan(plan);
    expect(serializePlan(parsePlan(text))).toBe(text);
    expect(JSON.parse(text).safety).toMatchObject({ archives: 1, managed: 20, percent: 5, exceeded: false, refusal: null });
  });

  it('refuses a change on a live resource without a fingerprint, naming the change and why', () => {
    const d = doc();
    d.changes[2]!.fingerprint = null;
    expect(problems(d)).toEqual([
      'changes[2].fingerprint must be string (action["Check balance"]): every update, restore and archive carries the fingerprint of the live resource it was planned against',
    ]);
  });

  it('lists every schema problem, located, with the change it belongs to', () => {
    const d = doc();
    (d.changes[0]!.desired as Record<string, unknown>).root_code = 42;
    (d.changes[1]!.desired as Record<string, unknown>).status = 'great';
    delete d.changes[5]!.desired;
    expect(problems(d)).toEqual([
      'changes[0].desired.root_code must be string (action["Buy bundle"])',
      'changes[1].desired.status must be one of "succeeded", "failed", "pending" (action["Buy bundle"].parser["bought"])',
      'changes[5] needs "desired" (app["com.example.agent"])',
    ]);
  });

  it('refuses a key the format does not have, such as a secret', () => {
    const d = doc();
    (d.changes[5]!.desired as Record<string, unknown>).token = 'x';
    expect(problems(d)).toEqual(['changes[5].desired.token is not part of a plan file (app["com.example.agent"])']);
  });

  it('refuses a create that names a live id, and an archive that carries desired values', () => {
    const d = doc();
    d.changes[0]!.id = 'abc';
    d.changes[6]!.desired = { category: 'x' };
    expect(problems(d)).toEqual([
      'changes[0].id must be null (action["Buy bundle"]): a create has id null; every other change names its live resource by id',
      'changes[6].desired is not allowed here (action["Check balance"].parser["timeout"])',
    ]);
  });

  it('refuses an address that is not the address of what the change sends', () => {
    const d = doc();
    d.changes[2]!.address = 'action["Other"]';
    expect(problems(d)).toEqual([
      'changes[2] (action["Other"]): the address does not match the desired values, which are those of action["Check balance"]',
    ]);
  });

  it('refuses two changes on one live resource, and a summary that does not add up', () => {
    const d = doc();
    d.changes.push({ ...d.changes[2]!, op: 'restore' });
    expect(problems(d)).toEqual([
      'changes[7] (action["Check balance"]): changes[2] already changes action id 1a2b3c4d; a plan changes each live resource once',
      'summary.restore is 1 but the plan lists 2 restore change(s)',
    ]);
  });

  it('writes reasons as codes with their wording, reads the codes back, refuses wording that says otherwise', () => {
    const d = doc();
    expect(d.changes[2]).toMatchObject({ reason: 'renamed from "Balance"', reasons: [{ code: 'renamed', from: 'Balance' }] });
    expect(d.changes[6]).toMatchObject({ reason: 'not in config', reasons: [{ code: 'not-in-config' }] });
    expect(parsePlan(JSON.stringify(d)).changes[2]).not.toHaveProperty('reason');
    d.changes[6]!.reason = 'cleanup';
    d.changes[4]!.reasons = [{ code: 'prune' }, { code: 'bored' }];
    expect(problems(d)).toEqual([
      'changes[4].reasons[1].code must be one of "renamed", "resend", "not-in-config", "removed-from-config", "prune" (action["Send money"])',
    ]);
    d.changes[4]!.reasons = [{ code: 'resend' }];
    expect(problems(d)).toEqual([
      'changes[6] (action["Check balance"].parser["timeout"]): reason "cleanup" is not what its reasons say ("not in config")',
    ]);
  });

  it('writes warnings as words and as coded diagnostics, reads the codes back, refuses the two disagreeing', () => {
    const d = doc();
    const message = samplePlan().warnings[0]!.message;
    expect(d.warnings).toEqual([message]);
    expect(d.diagnostics).toEqual([{ severity: 'warning', code: 'plan.hidden-steps', message }]);
    expect(parsePlan(JSON.stringify(d)).warnings).toEqual(samplePlan().warnings);
    // A file written before the codes: its warnings are read with a generic one.
    const { diagnostics: _, ...older } = d;
    expect(parsePlan(JSON.stringify(older)).warnings).toEqual([{ severity: 'warning', code: 'plan.warning', message }]);
    d.warnings = ['something else'];
    expect(problems(d)).toEqual(['warnings are not the messages of diagnostics; write the plan again with `menuctl plan --out FILE`']);
    expect(Object.keys(doc({ ...samplePlan(), warnings: [] }))).not.toContain('diagnostics');
  });

  it('says what is wrong with text that is not a plan at all', () => {
    expect(problems('{"format_version": 1,')[0]).toMatch(/^is not valid JSON \(/);
    expect(problems([])).toEqual(['not a menuctl plan (expected a JSON object)']);
    expect(problems({ changes: [] })).toEqual(['not a menuctl plan (no format_version)']);
    expect(problems({ format_version: 2 })).toEqual(['format_version 2 is not supported (this menuctl reads format_version 1)']);
  });
});
