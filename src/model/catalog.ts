// The world operator catalog: ids, exact names (quirks such as trailing spaces kept),
// countries and network codes. The reference server serves it; validate checks against it
// offline; plan resolves names with the live copy from GET /api/world_operators.
// Pure: the bundled file is read by config/catalog-file.ts.

import type { OperatorRef, WorldOperator } from './types.js';

/** Parses the TSV (header: id, name, country_alpha2, hnis). Names are kept byte for byte. */
export function parseCatalog(tsv: string): WorldOperator[] {
  const lines = tsv.split('\n').filter((l) => l.length > 0);
  return lines.slice(1).map((line) => {
    const [id, name, country, hnis] = line.split('\t');
    return { id: Number(id), name: name ?? '', country_alpha2: country ?? '', hnis: (hnis ?? '').replace(/\r$/, '') };
  });
}

export type Resolution =
  | { ok: true; operator: WorldOperator }
  | { ok: false; reason: 'unknown-id' | 'unknown-name' | 'ambiguous-name'; candidates: WorldOperator[] };

/** Resolves an id or an exact name. A name shared by several operators (e.g. "MTN") is ambiguous. */
export function resolveOperator(ref: OperatorRef['ref'], catalog: readonly WorldOperator[]): Resolution {
  if (typeof ref === 'number') {
    const op = catalog.find((o) => o.id === ref);
    return op ? { ok: true, operator: op } : { ok: false, reason: 'unknown-id', candidates: [] };
  }
  const matches = catalog.filter((o) => o.name === ref);
  if (matches.length === 1) return { ok: true, operator: matches[0]! };
  if (matches.length > 1) return { ok: false, reason: 'ambiguous-name', candidates: matches };
  // Offer near misses (case or surrounding spaces) as suggestions, never as a match.
  const folded = ref.trim().toLowerCase();
  return { ok: false, reason: 'unknown-name', candidates: catalog.filter((o) => o.name.trim().toLowerCase() === folded) };
}
