// `protected: true` forbids archiving. Protection lives in the config (as Terraform's
// prevent_destroy does): a resource is protected only while the config says so. A plan that
// would archive a live resource that a protected desired resource is, was pinned to, or shares
// its identity with is an error, whatever path led to the archive.

import type { Diagnostic } from '../model/diagnostic.js';
import { kindOf, parentOf } from '../model/kinds/index.js';
import type { Comparison, Orphan } from './compare.js';
import { reasonText } from './reasons.js';
import type { ArchiveChange } from './types.js';

export const PROTECTED_ARCHIVE = 'plan.protected-archive';

export interface Guard {
  address: string;
  loc?: Diagnostic['loc'];
}

function identityKey(type: string, scope: string, key: string): string {
  return JSON.stringify([type, scope, key]);
}

function orphanKey(o: Orphan): string {
  return identityKey(o.type, parentOf(o) ?? '', kindOf(o.type).key(o.live));
}

/** The archives that would take away a live resource a protected desired resource guards. */
export function protectedArchives(cmp: Comparison, archives: { change: ArchiveChange; orphan: Orphan }[]): { change: ArchiveChange; guard: Guard }[] {
  const byId = new Map<string, Guard>();
  const byKey = new Map<string, Guard>();
  for (const pair of cmp.pairs) {
    if (pair.desired.protected !== true) continue;
    const guard: Guard = { address: pair.address, ...(pair.desired.loc ? { loc: pair.desired.loc } : {}) };
    if (pair.live) byId.set(`${pair.type}:${pair.live.id}`, guard);
    if (pair.desired.id !== undefined) byId.set(`${pair.type}:${pair.desired.id}`, guard);
    const scope = parentOf(pair) ?? '';
    const renamed = 'renamed_from' in pair.desired ? pair.desired.renamed_from : undefined;
    const keys = [kindOf(pair.type).key(pair.spec), renamed];
    for (const k of keys) if (k !== undefined) byKey.set(identityKey(pair.type, scope, k), guard);
  }
  const out: { change: ArchiveChange; guard: Guard }[] = [];
  for (const { change, orphan } of archives) {
    const guard = byId.get(`${change.type}:${change.id}`) ?? byKey.get(orphanKey(orphan));
    if (guard) out.push({ change, guard });
  }
  return out;
}

export function protectionErrors(cmp: Comparison, archives: { change: ArchiveChange; orphan: Orphan }[]): Diagnostic[] {
  return protectedArchives(cmp, archives).map(protectionError);
}

export function protectionError({ change, guard }: { change: ArchiveChange; guard: Guard }): Diagnostic {
  return {
    severity: 'error',
    code: PROTECTED_ARCHIVE,
    message:
      `this plan would archive ${change.address} (id ${JSON.stringify(change.id)}, reason: ${reasonText(change.reasons)}), ` +
      `but ${guard.address} is protected and is, or shares the identity of, that live resource; ` +
      `archive it by hand, pin the right id, or remove \`protected: true\` first.`,
    address: guard.address,
    ...(guard.loc ? { loc: guard.loc } : {}),
  };
}
