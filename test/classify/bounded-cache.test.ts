// BoundedCache: the compiled-pattern cache stays within its limit and keeps what is in use.
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/classify/bounded-cache.js';

describe('BoundedCache', () => {
  it('makes a value once per key and returns the same one afterwards', () => {
    const cache = new BoundedCache<string, { key: string }>(10);
    const made: string[] = [];
    const make = (key: string) => { made.push(key); return { key }; };
    const first = cache.getOrAdd('a', make);
    expect(cache.getOrAdd('a', make)).toBe(first);
    expect(made).toEqual(['a']);
  });

  it('never holds more than its limit, dropping the least recently used entry', () => {
    const cache = new BoundedCache<string, string>(3);
    const made: string[] = [];
    const make = (key: string) => { made.push(key); return key.toUpperCase(); };
    for (const k of ['a', 'b', 'c']) cache.getOrAdd(k, make);
    cache.getOrAdd('a', make); // a is now the most recent; b the least
    cache.getOrAdd('d', make); // evicts b
    expect(cache.size).toBe(3);
    made.length = 0;
    for (const k of ['a', 'c', 'd']) cache.getOrAdd(k, make);
    expect(made).toEqual([]);
    cache.getOrAdd('b', make);
    expect(made).toEqual(['b']);
    expect(cache.size).toBe(3);
  });
});
