// config_digest: a sha-256 of the canonical desired state, so `apply --plan` can tell that the
// config moved on since the plan was made. Stable across key order, comments, file splits and
// resource order (see canonicalDesiredState for what is left out and why).

import { createHash } from 'node:crypto';
import { canonicalDesiredState } from '../model/canonical.js';
import type { DesiredState } from '../model/types.js';

const digests = new WeakMap<DesiredState, string>();

/** Kept per state object: `plan` works it out while its reads are under way (cli/pipeline.ts). */
export function configDigest(state: DesiredState): string {
  let digest = digests.get(state);
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(canonicalDesiredState(state))).digest('hex');
    digests.set(state, digest);
  }
  return digest;
}
