// Apply's outcomes as one JSON document (`apply --format json`), stable key order.
import type { ApplyResult } from '../apply/types.js';
import { stableJson } from '../text/stable-json.js';
import { outcomeReasonText } from './outcome-reason.js';

export function renderApplyJson(result: ApplyResult): string {
  return stableJson({
    format_version: 1,
    interrupted: result.interrupted,
    ...(result.stopped !== undefined ? { stopped: result.stopped } : {}),
    summary: { applied: result.summary.applied, failed: result.summary.failed, skipped: result.summary.skipped },
    outcomes: result.outcomes.map((o) => ({
      address: o.address,
      op: o.op,
      type: o.type,
      status: o.status,
      id: o.id,
      ...(o.error ? { error: { message: o.error.message, status: o.error.status ?? null, code: o.error.code ?? null, detail: o.error.detail ?? null } } : {}),
      ...(o.reason !== undefined ? { reason: outcomeReasonText(o.reason) } : {}),
      ...(o.recovered ? { recovered: true } : {}),
    })),
    ...(result.secrets ? { secrets: { file: result.secrets.file, addresses: result.secrets.addresses } } : {}),
  });
}
