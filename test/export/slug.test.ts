import { describe, expect, it } from 'vitest';
import { fileNamer, slugify } from '../../src/export/slug.js';

describe('export file names', () => {
  it.each([
    ['Check balance', 'check-balance'],
    ['  Send money → M-PESA  ', 'send-money-m-pesa'],
    ['Café crème', 'cafe-creme'],
    ['../../etc/passwd', 'etc-passwd'],
    ['Угода', ''],
  ])('slugify(%j) = %j', (name, slug) => expect(slugify(name)).toBe(slug));

  it('makes names unique, case-insensitively, and avoids reserved and empty names', () => {
    const name = fileNamer();
    expect(name('Check balance', 'a1')).toBe('check-balance.yaml');
    expect(name('CHECK BALANCE', 'a2')).toBe('check-balance-2.yaml');
    expect(name('check-balance', 'a3')).toBe('check-balance-3.yaml');
    expect(name('Apps', 'a4')).toBe('action-apps.yaml');
    expect(name('CON', 'a5')).toBe('action-con.yaml');
    expect(name('Угода', 'x/9')).toBe('action-x-9.yaml');
  });

  it('caps long names', () => {
    expect(fileNamer()('a'.repeat(200), '1')).toBe(`${'a'.repeat(60)}.yaml`);
  });
});
