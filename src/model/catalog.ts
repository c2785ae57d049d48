// The world operator catalog: ids, exact names (quirks such as trailing spaces kept),
// countries and network codes. The reference server serves it; validate checks against it
// offline; plan resolves names with the live copy from GET /api/world_operators.
// Pure: the bundled file is read by fs/catalog-file.ts.

import { suggest } from '../text/suggest.js';
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

/**
 * The one rule for an operator reference that does not resolve: its code and wording, the same
 * offline in `validate` (bundled catalog) and in `plan` (the live catalog), near misses named.
 */
export function unresolvedOperator(
  ref: OperatorRef['ref'],
  r: Extract<Resolution, { ok: false }>,
  catalog: readonly WorldOperator[],
): { code: 'semantic.operator-ambiguous' | 'semantic.operator-unknown'; message: string } {
  if (r.reason === 'ambiguous-name') {
    return {
      code: 'semantic.operator-ambiguous',
      message: `operator name ${JSON.stringify(ref)} matches ${r.candidates.length} operators: ${r.candidates.map(describeOperator).join(', ')}. Use the id of the one you mean.`,
    };
  }
  const what = r.reason === 'unknown-id' ? `operator id ${ref}` : `operator name ${JSON.stringify(ref)}`;
  return {
    code: 'semantic.operator-unknown',
    message: `${what} is not in the world operator catalog (names must match exactly).${nearMisses(ref, catalog, r.candidates)} Run \`menuctl operators\` to list them.`,
  };
}

export function describeOperator(op: WorldOperator): string {
  return `${op.id} ${JSON.stringify(op.name)} (${op.country_alpha2})`;
}

function nearMisses(ref: string | number, catalog: readonly WorldOperator[], folded: WorldOperator[]): string {
  if (typeof ref === 'number') return '';
  const lower = ref.trim().toLowerCase();
  const close = suggest(ref, [...new Set(catalog.map((o) => o.name))], 3).flatMap((n) => catalog.filter((o) => o.name === n));
  const containing = lower.length >= 3 ? catalog.filter((o) => o.name.toLowerCase().includes(lower)) : [];
  const byName = folded.length > 0 ? folded : [...new Set([...close, ...containing])];
  return byName.length > 0 ? ` Did you mean ${byName.slice(0, 5).map(describeOperator).join(', ')}?` : '';
}
