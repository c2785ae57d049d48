// config_digest stability and which live actions the reader must read parsers for.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalDesiredState } from '../../src/model/canonical.js';
import { configDigest } from '../../src/plan/digest.js';
import { wantParsers } from '../../src/plan/want-parsers.js';
import { desired, desiredAction, desiredApp, desiredParser, liveAction } from './builders.js';

describe('configDigest', () => {
  const base = () =>
    desired({
      actions: [
        desiredAction({ parsers: [desiredParser(), desiredParser({ category: 'b' })], loc: { file: 'a.yaml', line: 1, col: 1 } }),
        desiredAction({ name: 'Z', parsers: [] }),
      ],
      apps: [desiredApp()],
    });

  it('is a sha-256 hex', () => {
    expect(configDigest(base())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores locations, file names, fixtures, key order and resource order', () => {
    const moved = base();
    moved.files = ['x/one.yaml', 'x/two.yaml'];
    moved.actions.reverse();
    moved.actions[1]!.loc = { file: 'other.yaml', line: 40, col: 3 };
    moved.actions[1]!.parsers.reverse();
    moved.actions[1]!.tests = [{ message: 'm', channel: 'ussd', expect: 'none' }];
    const { name, package_name, webhook_url } = moved.apps[0]!;
    moved.apps = [{ webhook_url, package_name, name }];
    expect(configDigest(moved)).toBe(configDigest(base()));
  });

  it('changes when anything a plan depends on changes', () => {
    const digest = configDigest(base());
    const variants = [
      (s: ReturnType<typeof base>) => { s.actions[0]!.root_code = '*1#'; },
      (s: ReturnType<typeof base>) => { s.actions[0]!.steps = [...s.actions[0]!.steps].reverse(); },
      (s: ReturnType<typeof base>) => { s.actions[0]!.steps = [{ kind: 'variable', name: '1' }, { kind: 'pin' }]; },
      (s: ReturnType<typeof base>) => { s.actions[0]!.protected = true; },
      (s: ReturnType<typeof base>) => { s.actions[0]!.parsers[0]!.regex = 'x'; },
      (s: ReturnType<typeof base>) => { s.apps[0]!.id = '9'; },
      (s: ReturnType<typeof base>) => { s.organization_id = 3; },
    ];
    for (const change of variants) {
      const s = base();
      change(s);
      expect(configDigest(s)).not.toBe(digest);
    }
  });

  it('is the sha-256 of the whole canonical state as one JSON text, though it hashes it a resource at a time', () => {
    const hashed = (s: ReturnType<typeof base>) => createHash('sha256').update(JSON.stringify(canonicalDesiredState(s))).digest('hex');
    const states = [base(), desired({ actions: [], apps: [] }), desired({ actions: [desiredAction({ name: 'é ✓ 𐀀 "q" \\ \u2028' })], apps: [] })];
    const big = base();
    big.organization_id = 62;
    big.actions = Array.from({ length: 300 }, (_, i) => desiredAction({ name: `A${i}`, parsers: [desiredParser({ category: `c${i}` })] }));
    big.apps = [desiredApp(), desiredApp({ package_name: 'com.example.two', id: '4' })];
    for (const s of [...states, big]) expect(configDigest(s)).toBe(hashed(s));
  });
});

describe('wantParsers', () => {
  it('wants the actions a desired action can match by name, renamed_from or pinned id', () => {
    const want = wantParsers(desired({ actions: [desiredAction(), desiredAction({ name: 'New', renamed_from: 'Old' }), desiredAction({ name: 'P', id: 'pin1' })] }));
    expect(want(liveAction({ name: 'Check balance' }))).toBe(true);
    expect(want(liveAction({ name: 'Old' }))).toBe(true);
    expect(want(liveAction({ name: 'New' }))).toBe(true);
    expect(want(liveAction({ id: 'pin1', name: 'whatever' }))).toBe(true);
    expect(want(liveAction({ id: 'z', name: 'Unrelated' }))).toBe(false);
  });
});
