import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flat, ownCopy, StringPool } from '../../src/text/string-pool.js';

describe('StringPool', () => {
  it('keeps one copy per distinct value: `keep` runs once for each, and later calls get that copy', () => {
    const pool = new StringPool();
    const kept: string[] = [];
    const keep = (s: string) => {
      kept.push(s);
      return s;
    };
    const values = ['succeeded', 'failed', 'succeeded', 'ussd', 'failed', 'succeeded'];
    expect(values.map((v) => pool.get(v, keep))).toEqual(values);
    expect(kept).toEqual(['succeeded', 'failed', 'ussd']);
  });

  it('leaves strings over 1,000 characters out of the pool (keep runs every time)', () => {
    const pool = new StringPool();
    let calls = 0;
    const long = 'x'.repeat(1001);
    pool.get(long, (s) => (calls++, s));
    pool.get(long, (s) => (calls++, s));
    expect(calls).toBe(2);
  });

  it('fields() replaces only the named string fields', () => {
    const pool = new StringPool();
    const o = { status: 'succeeded', count: 3, sender: null as string | null, other: 'x' };
    expect(pool.fields(o, ['status', 'count', 'sender'])).toEqual({ status: 'succeeded', count: 3, sender: null, other: 'x' });
  });
});

describe('flat', () => {
  it('is the parts joined', () => {
    expect(flat('action[', '"A"', '].parser[', '"b"', ']')).toBe('action["A"].parser["b"]');
    expect(flat()).toBe('');
  });
});

describe('ownCopy', () => {
  it('gives the same string, code unit for code unit: lone surrogates, astral characters, any length', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 200 })), (s) => {
      expect(ownCopy(s)).toBe(s);
    }), { numRuns: 3000, seed: 13 });
    expect(ownCopy('\ud800 a lone surrogate, from a YAML escape')).toBe('\ud800 a lone surrogate, from a YAML escape');
  });
});
