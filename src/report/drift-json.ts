// Drift as the contract's JSON (format_version, in_sync, drift[]), plus the live id and warnings.
import { diagnosticJson } from '../model/diagnostic.js';
import type { Drift } from '../plan/drift-types.js';
import { stableJson } from '../text/stable-json.js';

export function renderDriftJson(drift: Drift): string {
  return stableJson({
    format_version: drift.format_version,
    ...(drift.environment !== undefined ? { environment: drift.environment } : {}),
    in_sync: drift.in_sync,
    drift: drift.drift.map((d) => ({
      class: d.class,
      type: d.type,
      address: d.address,
      id: d.id,
      fields: d.fields.map((f) => ({ path: f.path, expected: f.expected ?? null, live: f.live ?? null })),
    })),
    warnings: drift.warnings.map((w) => w.message),
    // The same warnings with their codes, as `validate --format json` lists diagnostics; only when there are any.
    ...(drift.warnings.length > 0 ? { diagnostics: drift.warnings.map(diagnosticJson) } : {}),
  });
}
