// The committed Java 17 tables (src/classify/generated/java-unicode.ts) are what Java 17 itself
// generates: re-runs scripts/java/PropertyTables.java and compares, table by table. In CI a missing
// JVM fails here (see java-crosscheck.test.ts); elsewhere the comparison is skipped with a reason.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { javaUnavailable } from './java-oracle.js';
import { javaProperty, codePointOfName, javaTables } from '../../src/classify/java-unicode.js';

const unavailable = javaUnavailable();
const GENERATOR = fileURLToPath(new URL('../../scripts/java/gen-unicode.mjs', import.meta.url));

it.runIf(process.env.CI === 'true')('Java is available in CI to re-generate the Unicode tables', () => {
  expect(unavailable).toBeNull();
});

describe.skipIf(unavailable !== null)(`Java 17 tables${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('are exactly what scripts/java/PropertyTables.java generates with this JDK', () => {
    const r = spawnSync(process.execPath, [GENERATOR, '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 600_000);
});

describe('Java 17 tables, as decoded', () => {
  it('hold the property names Java 17 has and not the later ones', () => {
    const t = javaTables();
    expect(t.java).toMatch(/^17\./);
    expect(t.exact).toContain('javaLowerCase');
    expect(t.isUpper).toContain('ALPHABETIC');
    expect(t.isUpper).not.toContain('EMOJI');
    expect(t.scriptOf.LATN).toBe('LATIN');
    expect(t.scriptOf.VITHKUQI).toBeUndefined();
  });

  it('resolve names with Java case rules', () => {
    expect(javaProperty('IsLATIN', true).ok).toBe(true);
    expect(javaProperty('islatin', true).ok).toBe(false);
    expect(javaProperty('InBasic Latin', true).ok).toBe(true);
    expect(javaProperty('Lower', false)).toEqual({ ok: true, set: [0x61, 0x7a] });
    expect(javaProperty('Lower', true)).toEqual({ ok: true, set: [0x41, 0x5a, 0x61, 0x7a] });
  });

  it('name characters as Character.codePointOf does', () => {
    expect(codePointOfName(' latin small letter e with acute ')).toBe(0xe9);
    expect(codePointOfName('CJK UNIFIED IDEOGRAPHS 4E00')).toBe(0x4e00);
    expect(codePointOfName('CJK UNIFIED IDEOGRAPH-4E00')).toBeUndefined();
    expect(codePointOfName('BASIC LATIN 41')).toBeUndefined();
    expect(codePointOfName('\u00a0LATIN SMALL LETTER A')).toBeUndefined();
  });
});
