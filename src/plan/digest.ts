// config_digest: a sha-256 of the canonical desired state, so `apply --plan` can tell that the
// config moved on since the plan was made. Stable across key order, comments, file splits and
// resource order (see canonicalDesiredState for what is left out and why).

import { createHash } from 'node:crypto';
import { canonicalDesiredState } from '../model/canonical.js';
import type { DesiredState } from '../model/types.js';

export function configDigest(state: DesiredState): string {
  return createHash('sha256').update(JSON.stringify(canonicalDesiredState(state))).digest('hex');
}
