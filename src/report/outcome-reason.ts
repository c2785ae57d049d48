// The words for why an apply outcome is what it is (apply/types.ts OutcomeReason): the text
// lines and the JSON's `reason` (docs/output.md "JSON (apply --format json)") both say these.

import type { OutcomeReason } from '../apply/types.js';

export function outcomeReasonText(reason: OutcomeReason): string {
  switch (reason.code) {
    case 'interrupted':
      return 'interrupted';
    case 'stopped':
      return `not sent: the run stopped (${reason.why})`;
    case 'blocked': {
      const b = reason.blocker;
      return `${reason.by} ${b.status === 'failed' ? `failed to ${b.op}` : `was skipped (${b.reason ? outcomeReasonText(b.reason) : 'unknown'})`}`;
    }
    case 'no-parent-id':
      return `${reason.by} has no live id`;
    case 'secrets-written':
      return `secrets written to ${reason.file}`;
    case 'secrets-with-api':
      return 'its token and webhook secret stay with the API: `menuctl secrets pull --out FILE` reads them by the recorded id';
    case 'secrets-discarded':
      return 'secrets discarded (--discard-secrets)';
    case 'secrets-lost':
      return `token not captured: the create answer was lost and reading the secrets back failed (${reason.cause}); read or rotate them in the API`;
  }
}
