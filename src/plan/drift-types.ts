// Drift: the same comparison as the plan, read the other way round (what changed live).
import type { Warning } from '../model/diagnostic.js';
import type { ResourceType } from '../model/types.js';

/** `removed`: managed by menuctl (the record holds it), no longer in the config: the next apply archives it. */
export type DriftClass = 'changed' | 'archived' | 'missing' | 'removed' | 'unmanaged';

export interface DriftField {
  path: string;
  expected: unknown;
  live: unknown;
}

export interface DriftItem {
  class: DriftClass;
  type: ResourceType;
  address: string;
  /** live id; null for `missing` */
  id: string | null;
  fields: DriftField[];
}

export interface Drift {
  format_version: 1;
  /** The environment (`--env`) compared; absent for a config without environments. */
  environment?: string;
  in_sync: boolean;
  drift: DriftItem[];
  /** JSON lists their messages as `warnings` and the whole as `diagnostics` (report/drift-json.ts). */
  warnings: Warning[];
}
