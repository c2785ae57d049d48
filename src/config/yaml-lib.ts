// The `yaml` package is loaded on first use, not when the config modules are imported: the first
// file read needs its core-schema tags (read-fast.ts), and its parser is needed only when the
// fast path refuses a file (parse.ts) or a finding needs a position (source.ts). A command that
// reads no config (`--help`, `token`, `serve`) never loads it. A module-local require loads it
// synchronously, which keeps the loader synchronous.
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
