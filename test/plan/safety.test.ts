// The archive threshold's boundaries, on plain data.
import { describe, expect, it } from 'vitest';
import { checkArchiveThreshold, countManaged, DEFAULT_THRESHOLDS } from '../../src/plan/safety.js';
import type { Change } from '../../src/plan/types.js';
import { actionAddress } from '../../src/model/address.js';
import { archive, createAction, plan } from '../apply/plan-data.js';

const archives = (n: number) => Array.from({ length: n }, (_, i) => archive('action', actionAddress(`A${i}`), `id${i}`));

describe('checkArchiveThreshold', () => {
  it.each([
    // archives, managed, exceeded: both "more than 10" and "more than 25%" must hold
    [10, 10, false],
    [11, 44, false], // exactly 25%
    [11, 43, true],
    [11, 11, true],
    [50, 1000, false],
  ])('%i archives of %i managed -> exceeded %s', (n, managed, exceeded) => {
    expect(checkArchiveThreshold(plan(archives(n)).changes, { ...DEFAULT_THRESHOLDS, managedCount: managed }).exceeded).toBe(exceeded);
  });

  it('without a managed count counts every archive as 100%, however many other ids the plan touches', () => {
    const updates = Array.from({ length: 40 }, (_, i) => ({ ...createAction(`U${i}`), op: 'update' as const, id: `u${i}`, fingerprint: 'f' }) as Change);
    const p = plan([...archives(11), ...updates]);
    expect(checkArchiveThreshold(p.changes, DEFAULT_THRESHOLDS)).toMatchObject({ archives: 11, managed: 11, exceeded: true });
  });

  it('limits are configurable', () => {
    expect(checkArchiveThreshold(plan(archives(2)).changes, { maxArchive: 1, maxArchivePercent: 10, managedCount: 10 }).exceeded).toBe(true);
    expect(checkArchiveThreshold(plan(archives(2)).changes, { maxArchive: 2, maxArchivePercent: 10, managedCount: 10 }).exceeded).toBe(false);
  });
});

describe('countManaged', () => {
  it('counts the active actions, parsers and apps, and nothing archived', () => {
    const on = { archived_at: null };
    const off = { archived_at: '2024-01-01T00:00:00Z' };
    expect(countManaged({ actions: [on, off, on], parsers: [on, on, off], apps: [on, off] })).toBe(5);
  });
});
