// The `yaml` package is needed only when the fast path refuses a file (see parse.ts) or a finding
// needs a position (source.ts), so it is loaded on first use: ~40 ms off every clean run. A
// module-local require loads it synchronously, which keeps the loader synchronous.
import { createRequire } from 'node:module';
import type { Alias, Scalar, YAMLMap, YAMLSeq } from 'yaml';

type Yaml = typeof import('yaml');
let lib: Yaml | undefined;

export function yamlLib(): Yaml {
  lib ??= createRequire(import.meta.url)('yaml') as Yaml;
  return lib;
}

export const isAlias = (n: unknown): n is Alias => yamlLib().isAlias(n);
export const isMap = (n: unknown): n is YAMLMap => yamlLib().isMap(n);
export const isScalar = (n: unknown): n is Scalar => yamlLib().isScalar(n);
export const isSeq = (n: unknown): n is YAMLSeq => yamlLib().isSeq(n);
