// A fingerprint hashes the canonical form the planner compares: what moves a plan's verdict
// moves the fingerprint, and nothing else does.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/model/fingerprint.js';
import { liveAction, liveApp, liveParser } from '../plan/builders.js';

describe('fingerprint', () => {
  it('moves with every managed field, the id, the owner and archived', () => {
    const p = liveParser();
    const base = fingerprint('parser', p);
    for (const moved of [
      { regex: 'other' }, { category: 'other' }, { status: 'failed' as const }, { target_type: 'sms' as const },
      { sender: 'MPESA' }, { user_message: 'hi' }, { id: 'p-other' }, { action_id: 'a-other' }, { archived_at: '2024-02-02T00:00:00Z' },
    ]) {
      expect(fingerprint('parser', { ...p, ...moved }), JSON.stringify(moved)).not.toBe(base);
    }
    const a = liveAction();
    expect(fingerprint('action', { ...a, steps: [...a.steps, '9'] })).not.toBe(fingerprint('action', a));
    expect(fingerprint('app', { ...liveApp(), webhook_url: 'https://x.example/h' })).not.toBe(fingerprint('app', liveApp()));
  });

  it('ignores what the planner ignores: timestamps, counts, operator order, an empty sender for null', () => {
    const p = liveParser();
    expect(fingerprint('parser', { ...p, updated_at: '2030-01-01T00:00:00Z' })).toBe(fingerprint('parser', p));
    expect(fingerprint('parser', { ...p, sender: '' })).toBe(fingerprint('parser', { ...p, sender: null }));
    const a = { ...liveAction(), operators: ['MTN', 'Airtel'] };
    expect(fingerprint('action', { ...a, operators: ['Airtel', 'MTN'], transactions_count: 7 } as typeof a)).toBe(fingerprint('action', a));
  });
});
