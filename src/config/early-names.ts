// What a config names, read from its values before the schema and the checks have run: enough to
// start reading the live state while the rest of the load goes on (cli/pipeline.ts). Read the way
// the model builder reads them (config/build.ts); a value the builder would not take as is makes
// this give up (null), and the reads then wait for the full load.

import { inEnvironment, type EnvironmentDef } from './environments.js';
import type { ParsedFile } from './parse.js';

export interface EarlyNames {
  organization_id: number | undefined;
  actions: { name: string; renamed_from?: string; id?: string }[];
  /** Apps pinned with `id:`. */
  appIds: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function earlyNames(files: readonly ParsedFile[], environment: EnvironmentDef | undefined): EarlyNames | null {
  const out: EarlyNames = { organization_id: undefined, actions: [], appIds: [] };
  for (const { src, root } of files) {
    if (root === null) return null;
    if (root.organization_id !== undefined) {
      if (typeof root.organization_id !== 'number') return null;
      out.organization_id ??= root.organization_id;
    }
    for (const key of ['actions', 'apps'] as const) {
      const list = root[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) return null;
      for (const raw of list) {
        if (!isObj(raw)) return null;
        if (!inEnvironment(raw, environment?.name)) continue;
        const id = src.written(raw, 'id');
        if (key === 'apps') {
          if (id !== undefined) out.appIds.push(id);
          continue;
        }
        if (typeof raw.name !== 'string') return null;
        const action: EarlyNames['actions'][number] = { name: raw.name };
        if (typeof raw.renamed_from === 'string') action.renamed_from = raw.renamed_from;
        if (id !== undefined) action.id = id;
        out.actions.push(action);
      }
    }
  }
  // The environment's organization is its guard (config/load.ts merge).
  if (environment?.organization_id !== undefined) out.organization_id = environment.organization_id;
  return out;
}
