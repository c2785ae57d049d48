// A Map with a size limit that drops the least recently used entry, so a long-lived process (or a
// config with 25,000 distinct regexes) cannot grow it without end while the entries in use stay
// (clearing everything when full would also drop the patterns of the action being tested).
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The cached value, or `make(key)` stored as the most recent entry. */
  getOrAdd(key: K, make: (key: K) => V): V {
    let value = this.map.get(key);
    if (value !== undefined) {
      // Map iterates in insertion order: re-inserting makes the key the most recent.
      this.map.delete(key);
    } else {
      value = make(key);
      if (this.map.size >= this.limit) this.map.delete(this.map.keys().next().value as K);
    }
    this.map.set(key, value);
    return value;
  }

  /** The cached value (now the most recent), or undefined. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.limit) this.map.delete(this.map.keys().next().value as K);
    this.map.set(key, value);
  }

  /** Drops the entry of `key`, if any. */
  delete(key: K): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
