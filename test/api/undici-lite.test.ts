// api/undici-lite.ts loads two of undici's files, not the package (~20 ms against 60-80 ms of a
// cold start): with the undici this project installs, that path must be the one taken.
import { describe, expect, it } from 'vitest';
import { undiciSource } from '../../src/api/undici-lite.js';

describe('undici-lite', () => {
  it('loads undici\'s Agent and request() by path with the installed undici, not the whole package', () => {
    expect(undiciSource()).toBe('lite');
  });
});
