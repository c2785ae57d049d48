// Where a model object came from (config/origin.ts): the path is kept as a number for the usual
// shapes and as JSON otherwise, and must come back exactly; the origin stays invisible to copies,
// JSON and equality, and each object still locates to its own place.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';
import { decodePath, encodePath, originOf, PATH, SOURCE } from '../../src/config/origin.js';
import type { Segment } from '../../src/config/source.js';

const KEYS = ['actions', 'apps', 'parsers', 'operators', 'tests', 'sessions', 'steps', 'sms', 'screens', 'other', 'environments'];

describe('origin paths', () => {
  it('come back exactly from their code, whatever the path', () => {
    const segment: fc.Arbitrary<Segment> = fc.oneof(
      fc.constantFrom(...KEYS),
      fc.string(),
      fc.nat({ max: 2 ** 25 }),
      fc.constantFrom(0, 1, 31, 32, 2 ** 16 - 1, 2 ** 16, 2 ** 17 - 1, 2 ** 17, 2 ** 24 - 1, 2 ** 24),
    );
    fc.assert(fc.property(fc.array(segment, { maxLength: 6 }), (path) => {
      expect(decodePath(encodePath(path))).toEqual(path);
    }), { numRuns: 5000, seed: 9 });
    // The usual shapes, at the edges of their ranges.
    for (const path of [['actions', 0], ['actions', 2 ** 24 - 1], ['screens', 7], ['actions', 99_999, 'parsers', 4], ['apps', 2 ** 24 - 1, 'screens', 2 ** 16 - 1]] as Segment[][]) {
      expect(typeof encodePath(path)).toBe('number');
      expect(decodePath(encodePath(path))).toEqual(path);
    }
    // An action's path, and a parser's while its indexes are small, need no heap number (a
    // small integer, below 2^31, is kept in the object's slot itself).
    expect(encodePath(['actions', 99_999])).toBeLessThan(2 ** 31);
    expect(encodePath(['actions', 131_071, 'parsers', 31])).toBeLessThan(2 ** 31);
    expect(encodePath(['actions', 131_072, 'parsers', 31])).toBeGreaterThanOrEqual(2 ** 31);
    expect(encodePath(['actions', 5, 'parsers', 32])).toBeGreaterThanOrEqual(2 ** 31);
    for (const path of [['actions', 2 ** 24], ['actions', 1, 'parsers', 2 ** 16], ['actions', -1], ['actions', 1.5], ['other', 1], ['actions', 1, 'parsers']] as Segment[][]) {
      expect(typeof encodePath(path), JSON.stringify(path)).toBe('string');
      expect(decodePath(encodePath(path))).toEqual(path);
    }
  });

  it('are invisible to copies, JSON and equality, and each model object locates to its own place', () => {
    const text = ['version: 1', 'actions:', '  - name: A', '    root_code: "*1#"', '    transport_type: ussd', '    operators: [2172]',
      '    parsers:', '      - category: ok', '        status: succeeded', '        regex: "a.*"', '      - category: no', '        status: failed',
      '        regex: "b.*"', '    tests:', '      - message: a', '        expect: none', 'apps:', '  - name: X', '    package_name: com.example.x', ''].join('\n');
    const { state } = loadSources([{ file: 'm.yaml', text }], { env: {}, cwd: '/' });
    if (!state) throw new Error('the config should load');
    const action = state.actions[0]!;
    const objects = [action, ...action.parsers, ...action.operators, ...action.tests, ...state.apps];
    for (const o of objects) {
      expect(Object.keys(o)).not.toContain('loc');
      expect(Object.getOwnPropertySymbols({ ...o })).toEqual([]);
      expect(JSON.stringify(o)).not.toContain('m.yaml');
      expect(Object.getOwnPropertyDescriptor(o, PATH)).toMatchObject({ enumerable: false, writable: false, configurable: false });
      expect(Object.getOwnPropertyDescriptor(o, SOURCE)).toMatchObject({ enumerable: false, writable: false, configurable: false });
    }
    expect(originOf(action.parsers[1]!)!.path).toEqual(['actions', 0, 'parsers', 1]);
    expect(action.parsers[1]!.loc).toMatchObject({ file: 'm.yaml', line: 11 });
    expect(action.operators[0]!.loc).toMatchObject({ line: 6 });
    expect(action.tests[0]!.loc).toMatchObject({ line: 15 });
    expect(state.apps[0]!.loc).toMatchObject({ line: 18 });
    expect(action.loc).toMatchObject({ line: 3 });
  });
});
