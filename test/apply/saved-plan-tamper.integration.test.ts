// A saved plan edited by hand between review and apply must be refused whole, before the
// first write, with a message naming the change. Each case was reproduced against the real
// reference server: before the checks below, apply --plan carried out every one of them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/model/fingerprint.js';
import type { LiveAction } from '../../src/model/types.js';
import { writeRequests } from '../helpers/server.js';
import { configYaml, useCliWorld, writeConfig } from './cli-world.js';

const w = useCliWorld(700);
const { cli } = w;
const PLAN = () => join(w.dir, 'plan.json');
type PlanDoc = { changes: Record<string, unknown>[]; [k: string]: unknown };
const readPlan = (): PlanDoc => JSON.parse(readFileSync(PLAN(), 'utf8'));
const writePlan = (doc: PlanDoc) => writeFileSync(PLAN(), JSON.stringify(doc, null, 2));

/** P (protected) and B live and in the config; returns them as live. */
async function livePB(): Promise<{ p: LiveAction; b: LiveAction }> {
  writeConfig(w.dir, configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B' }]));
  expect((await cli(['apply', '--yes'])).code).toBe(0);
  const live = await w.client.listActions();
  return { p: live.find((a) => a.name === 'P')!, b: live.find((a) => a.name === 'B')! };
}

async function plan(yaml: string, extra: string[] = []): Promise<void> {
  writeConfig(w.dir, yaml);
  const r = await cli(['plan', '--out', PLAN(), ...extra]);
  expect(r.code, r.stderr).toBe(0);
}

/** apply --plan with the config: refused, nothing written, the message names `address`. */
async function expectRefused(address: string, why: RegExp): Promise<string> {
  w.server.resetStats();
  const r = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
  expect(r.stderr).toContain(address);
  expect(r.stderr).toMatch(why);
  expect(r.stderr).toContain('Nothing was changed');
  expect(r.code).toBe(1);
  expect(writeRequests(w.server)).toBe(0);
  return r.stderr;
}

describe('apply --plan refuses a tampered plan', () => {
  it('(a) an update re-aimed at a protected action, its fingerprint nulled', async () => {
    const { p } = await livePB();
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B', rootCode: '*155#' }]));
    const doc = readPlan();
    const change = doc.changes.find((c) => c.address === 'action["B"]')!;
    Object.assign(change, { address: 'action["P"]', id: p.id, fingerprint: null });
    (change.desired as Record<string, unknown>).name = 'P';
    writePlan(doc);
    await expectRefused('action["P"]', /fingerprint/);
    expect((await w.client.getAction(p.id))!.root_code).toBe('*144#');
  });

  it('(a) the same with a fingerprint recomputed from the live API: caught by the config', async () => {
    const { p } = await livePB();
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B', rootCode: '*155#' }]));
    const doc = readPlan();
    const change = doc.changes.find((c) => c.address === 'action["B"]')!;
    Object.assign(change, { address: 'action["P"]', id: p.id, fingerprint: fingerprint('action', p) });
    (change.desired as Record<string, unknown>).name = 'P';
    writePlan(doc);
    await expectRefused('action["P"]', /not what the config plans/);
    expect((await w.client.getAction(p.id))!.root_code).toBe('*144#');
  });

  it('(b) an archive of a protected action added to a plan', async () => {
    const { p } = await livePB();
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B', rootCode: '*155#' }]));
    const doc = readPlan();
    doc.changes.push({ op: 'archive', type: 'action', address: 'action["P"]', id: p.id, fields: [], reason: 'prune', reasons: [{ code: 'prune' }], fingerprint: fingerprint('action', p) });
    (doc.summary as { archive: number }).archive++;
    writePlan(doc);
    const stderr = await expectRefused('action["P"]', /protected/);
    expect(stderr).toContain('plan.protected-archive');
    expect((await w.client.getAction(p.id))!.archived_at).toBeNull();
  });

  it('(c) a second action renamed by re-aiming an update\'s id', async () => {
    const { b } = await livePB();
    writeConfig(w.dir, configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B' }, { name: 'C' }]));
    expect((await cli(['apply', '--yes'])).code).toBe(0);
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B' }, { name: 'C', rootCode: '*155#' }]));
    const doc = readPlan();
    const change = doc.changes.find((c) => c.address === 'action["C"]')!;
    Object.assign(change, { id: b.id, fingerprint: fingerprint('action', b) });
    writePlan(doc);
    await expectRefused('action["C"]', /not what the config plans/);
    expect((await w.client.getAction(b.id))!.name).toBe('B');
  });

  it('(c) the same via the address: an update of C moved to B\'s address and id, with B\'s fingerprint', async () => {
    const { b } = await livePB();
    writeConfig(w.dir, configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B' }, { name: 'C' }]));
    expect((await cli(['apply', '--yes'])).code).toBe(0);
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B' }, { name: 'C', rootCode: '*155#' }]));
    const doc = readPlan();
    Object.assign(doc.changes.find((c) => c.address === 'action["C"]')!, { address: 'action["B"]', id: b.id, fingerprint: fingerprint('action', b) });
    writePlan(doc);
    // Caught by the file itself, config or not: the address is not that of what the change sends.
    w.server.resetStats();
    const r = await cli(['apply', '--plan', 'plan.json', '--yes']);
    expect(r.stderr).toMatch(/changes\[0\] \(action\["B"\]\): the address does not match the desired values, which are those of action\["C"\]/);
    expect(r.code).toBe(1);
    expect(writeRequests(w.server)).toBe(0);
    expect((await w.client.getAction(b.id))!.name).toBe('B');
  });

  it('refuses a change whose fingerprint is null where one is required, even without the config', async () => {
    await livePB();
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B', rootCode: '*155#' }]));
    const doc = readPlan();
    doc.changes[0]!.fingerprint = null;
    writePlan(doc);
    w.server.resetStats();
    const r = await cli(['apply', '--plan', 'plan.json', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/changes\[0\].*action\["B"\].*fingerprint/);
    expect(writeRequests(w.server)).toBe(0);
  });

  it('refuses a file whose desired values do not fit the schema, saying where', async () => {
    await livePB();
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B', rootCode: '*155#' }]));
    const doc = readPlan();
    (doc.changes[0]!.desired as Record<string, unknown>).root_code = 42;
    writePlan(doc);
    w.server.resetStats();
    const r = await cli(['apply', '--plan', 'plan.json', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/changes\[0\]\.desired\.root_code/);
    expect(writeRequests(w.server)).toBe(0);
  });

  it('still carries out an untampered plan checked against the config', async () => {
    const { b } = await livePB();
    await plan(configYaml([{ name: 'P', extra: '    protected: true' }, { name: 'B', rootCode: '*155#' }]));
    const r = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect((await w.client.getAction(b.id))!.root_code).toBe('*155#');
  });
});
