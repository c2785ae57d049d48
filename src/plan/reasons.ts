// Why a change is in the plan, as data (Terraform's ActionReason): codes that tests, renderers
// and a CI job can match, worded in one place. The plan file keeps both the codes (`reasons`)
// and this wording (`reason`) for readers of the JSON.

import type { ChangeReason } from './types.js';

export function reasonText(reasons: readonly ChangeReason[] | undefined): string | undefined {
  if (!reasons || reasons.length === 0) return undefined;
  return reasons.map(wordOf).join('; ');
}

function wordOf(r: ChangeReason): string {
  switch (r.code) {
    case 'renamed': return `renamed from ${JSON.stringify(r.from)}`;
    case 'resend': return 'forced: --resend';
    case 'not-in-config': return 'not in config';
    case 'removed-from-config': return 'removed from config (menuctl manages it)';
    case 'prune': return 'prune';
  }
}
