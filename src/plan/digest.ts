// config_digest: a sha-256 of the canonical desired state, so `apply --plan` can tell that the
// config moved on since the plan was made. Stable across key order, comments, file splits and
// resource order (see canonicalDesiredState in model/canonical.ts for what is left out and why).

import { createHash, type Hash } from 'node:crypto';
import { canonicalDesiredParts } from '../model/canonical.js';
import type { DesiredState } from '../model/types.js';

/**
 * sha-256 of JSON.stringify(canonicalDesiredState(state)), fed to the hash a resource at a time:
 * the same bytes, so the same digest, without the whole value or its text (which set
 * `plan --out`'s peak). Compact JSON writes an
 * element of a list the same inside the list as alone, so the pieces join to the whole.
 */
export function configDigest(state: DesiredState): string {
  const hash = createHash('sha256');
  const { organization_id, actions, apps } = canonicalDesiredParts(state);
  hash.update(`{"organization_id":${JSON.stringify(organization_id)},"actions":[`);
  hashList(hash, actions);
  hash.update('],"apps":[');
  hashList(hash, apps);
  hash.update(']}');
  return hash.digest('hex');
}

function hashList(hash: Hash, items: Iterable<unknown>): void {
  let first = true;
  for (const item of items) {
    hash.update(first ? JSON.stringify(item) : `,${JSON.stringify(item)}`);
    first = false;
  }
}
