// Small value helpers the kind modules share: reading API attributes, and the comparisons'
// normalisations. Pure.

/** A resource as the API answers it (shapes already checked against schemas/api/*.json). */
export interface ApiResource {
  id: string | number;
  attributes: Record<string, unknown>;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// "Null or empty for ussd parsers" (spec: Parser.sender): '' and null mean the same thing.
export const nullIfEmpty = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' ? null : v);

/** Patch bodies: exactly the given fields (a `null` is sent, to clear a field; `undefined` is not). */
export function pickDefined<T extends object>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
