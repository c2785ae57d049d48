// A live parser held as the config's parser it equals (model/settled-parser.ts): it must read,
// fingerprint and serialise as the parsed object it replaces, and be made only when it can.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/model/fingerprint.js';
import { canonicalParser } from '../../src/model/kinds/parser.js';
import { SettledLiveParser } from '../../src/model/settled-parser.js';
import type { LiveParser } from '../../src/model/types.js';
import { desiredParser, liveParser } from '../plan/builders.js';

const FIELDS = ['id', 'action_id', 'category', 'status', 'target_type', 'sender', 'regex', 'user_message', 'archived_at', 'updated_at'] as const;

describe('SettledLiveParser', () => {
  it('reads, fingerprints and serialises as the live parser it replaces', () => {
    for (const [live, config] of [
      [liveParser({ user_message: 'Balance {balance}' }), desiredParser({ user_message: 'Balance {balance}' })],
      // A ussd parser whose config names a sender: the API holds none (resolveParser drops it).
      [liveParser(), desiredParser({ sender: 'MPESA' })],
      [liveParser({ target_type: 'sms', sender: 'MPESA', status: 'failed' }), desiredParser({ target_type: 'sms', sender: 'MPESA', status: 'failed' })],
    ] as const) {
      const settled = SettledLiveParser.from(live, config, 'a1');
      expect(settled).not.toBeNull();
      for (const k of FIELDS) expect(settled![k], k).toBe(live[k]);
      expect(JSON.stringify(settled)).toBe(JSON.stringify(live));
      expect(fingerprint('parser', settled!)).toBe(fingerprint('parser', live));
      expect(canonicalParser(settled!)).toEqual(canonicalParser(live));
    }
  });

  it('is not made when any field differs from the config, or the parser is archived, another action\'s or has more fields', () => {
    const config = desiredParser({ user_message: 'ok' });
    const base = liveParser({ user_message: 'ok' });
    expect(SettledLiveParser.from(base, config, 'a1')).not.toBeNull();
    const differing: Partial<LiveParser>[] = [
      { category: 'other' }, { status: 'failed' }, { target_type: 'sms' }, { sender: 'MPESA' }, { regex: 'x.*' }, { user_message: '' },
      { archived_at: '2024-02-01T00:00:00Z' }, { action_id: 'a2' },
    ];
    for (const over of differing) expect(SettledLiveParser.from({ ...base, ...over }, config, 'a1'), JSON.stringify(over)).toBeNull();
    expect(SettledLiveParser.from({ ...base, extra: 1 } as LiveParser, config, 'a1')).toBeNull();
    // As many fields, one of them unknown: it would be lost from the JSON.
    const { updated_at: _dropped, ...rest } = base;
    expect(SettledLiveParser.from({ ...rest, description: 'extra' } as unknown as LiveParser, config, 'a1')).toBeNull();
    // The sms sender is compared as the API holds it.
    expect(SettledLiveParser.from(liveParser({ target_type: 'sms', sender: 'OTHER' }), desiredParser({ target_type: 'sms', sender: 'MPESA' }), 'a1')).toBeNull();
  });
});
