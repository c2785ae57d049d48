// apply holds an API slot for the call, not for the applied-state record's write (issue 17: a
// whole-record write per confirmed action, inside the slot, made apply quadratic), yet a change
// still counts as done only once its record line is written.
import { describe, expect, it, vi } from 'vitest';
import { applyPlan } from '../../src/apply/apply.js';
import type { ApplyJournal, ChangeOutcome } from '../../src/apply/types.js';
import { FakeClient } from './fake-client.js';
import { createAction, createParser, plan } from './plan-data.js';

describe('apply and the record journal', () => {
  it('sends the next change while a confirmed one waits for its record line; reports each only once recorded', async () => {
    const client = new FakeClient();
    const pending = new Map<string, () => void>();
    const journal: ApplyJournal = {
      beforeCreate: async () => undefined,
      confirmed: (change) => new Promise<void>((resolve) => pending.set(change.address, resolve)),
      failed: async () => undefined,
    };
    const done: string[] = [];
    const applying = applyPlan(plan([createAction('A'), createAction('B'), createParser('A', 'ok')]), client, {
      concurrency: 1, journal, onDone: (o: ChangeOutcome) => done.push(o.address),
    });
    // One slot: B's create goes out while A's record write has not finished.
    await vi.waitFor(() => expect(client.calls.filter((c) => c.startsWith('createAction'))).toEqual(['createAction A', 'createAction B']));
    expect(done).toEqual([]);
    pending.get('action["A"]')!();
    await vi.waitFor(() => expect(done).toEqual(['action["A"]']));
    // The parser waits for its level: both actions recorded first.
    expect(client.calls.some((c) => c.startsWith('createParser'))).toBe(false);
    pending.get('action["B"]')!();
    await vi.waitFor(() => expect(client.calls.some((c) => c.startsWith('createParser'))).toBe(true));
    await vi.waitFor(() => expect(pending.has('action["A"].parser["ok"]')).toBe(true));
    pending.get('action["A"].parser["ok"]')!();
    const result = await applying;
    expect(result.summary).toEqual({ applied: 3, failed: 0, skipped: 0 });
    expect(done).toEqual(['action["A"]', 'action["B"]', 'action["A"].parser["ok"]']);
  });

  it('a change the API confirmed but whose record line could not be written is reported failed, with its id', async () => {
    const client = new FakeClient();
    const journal: ApplyJournal = {
      beforeCreate: async () => undefined,
      confirmed: async () => { throw new Error('ENOSPC: no space left on device'); },
      failed: async () => undefined,
    };
    const result = await applyPlan(plan([createAction('A')]), client, { concurrency: 1, journal });
    expect(result.summary).toEqual({ applied: 0, failed: 1, skipped: 0 });
    expect(result.outcomes[0]).toMatchObject({ status: 'failed', id: expect.any(String) });
    expect(JSON.stringify(result.outcomes[0])).toContain('ENOSPC');
  });
});
