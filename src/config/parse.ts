// One file's text -> its values (a ConfigSource), or located diagnostics.
// Never throws on bad input: every problem becomes a Diagnostic with file:line:col.
// The fast path (./read-fast.ts) reads every ordinary file; a file it refuses (invalid YAML, or
// anything unusual) is read by the precise `yaml` path, whose diagnostics are the reference.

import type { Node, YAMLError } from 'yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import { addressOfPath } from './addresses.js';
import type { SourceFile } from './files.js';
import type { VariableScope } from './interpolate.js';
import { readFast, Refused } from './read-fast.js';
import { readValues, type Unaddressed } from './read-precise.js';
import { ConfigSource, YAML_OPTIONS, type Json } from './source.js';
import { yamlErrorAdvice } from './yaml-advice.js';
import { yamlLib } from './yaml-lib.js';

const YAML_CODES: Record<string, string> = {
  DUPLICATE_KEY: 'yaml.duplicate-key',
  MULTIPLE_DOCS: 'yaml.multi-document',
  TAG_RESOLVE_FAILED: 'yaml.tag',
};

const YAML_HINTS: Record<string, string> = {
  DUPLICATE_KEY: 'this key appears twice in the same mapping; keep one.',
  MULTIPLE_DOCS: 'the file holds several YAML documents (`---`); put each in its own file.',
};

function fromYamlError(e: YAMLError, src: ConfigSource, severity: Diagnostic['severity']): Diagnostic {
  const code = YAML_CODES[e.code] ?? 'yaml.syntax';
  const detail = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const advice = YAML_HINTS[e.code] === undefined ? yamlErrorAdvice(e, src.text) : undefined;
  const message = YAML_HINTS[e.code] ?? advice?.message ?? `${detail}. Fix the YAML syntax here.`;
  return { severity, code, message, loc: src.loc(advice?.offset ?? e.pos[0]) };
}

export interface ParsedFile {
  src: ConfigSource;
  /** null when the file could not be read as one YAML mapping. */
  root: Record<string, unknown> | null;
}

export function parseFile(file: SourceFile, scope: VariableScope, diagnostics: Diagnostic[]): ParsedFile {
  try {
    const src = readFast(file.file, file.text, scope);
    return { src, root: src.root as Record<string, unknown> };
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    return parsePrecise(file, scope, diagnostics);
  }
}

/** The `yaml` path: slower, but reports every duplicate key, unknown alias, tag and syntax error. */
export function parsePrecise(file: SourceFile, scope: VariableScope, diagnostics: Diagnostic[]): ParsedFile {
  const doc = yamlLib().parseDocument(file.text, YAML_OPTIONS);
  const src = new ConfigSource(file.file, file.text, doc);
  for (const e of doc.errors) diagnostics.push(fromYamlError(e, src, 'error'));
  for (const w of doc.warnings) diagnostics.push(fromYamlError(w, src, 'warning'));
  if (doc.errors.length > 0) return { src, root: null };
  if (doc.contents === null) {
    diagnostics.push({ severity: 'error', code: 'config.empty', loc: src.loc(0),
      message: 'file is empty; a config needs at least `version: 1`.' });
    return { src, root: null };
  }
  const unresolved: Unaddressed[] = [];
  const root: Json | undefined = readValues(doc, src, scope, diagnostics, unresolved);
  if (root === undefined) return { src, root: null };
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    const got = root === null ? 'null' : Array.isArray(root) ? 'a list' : `a ${typeof root}`;
    diagnostics.push({ severity: 'error', code: 'config.root-type', loc: src.loc((doc.contents as Node).range?.[0] ?? 0),
      message: `the top level must be a mapping (version:, actions:, apps:), not ${got}.` });
    return { src, root: null };
  }
  for (const { diagnostic, path } of unresolved) {
    const address = addressOfPath(root, path);
    if (address) diagnostic.address = address;
  }
  return { src, root };
}
