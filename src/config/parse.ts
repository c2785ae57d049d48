// One file's text -> its values as written (strings still holding `${...}`) and its
// ConfigSource (positions on demand), or located diagnostics. Once per file and run, whatever the
// environments: ./evaluate.ts then interpolates per environment, from these values.
// Never throws on bad input: every problem becomes a Diagnostic with file:line:col.
// The fast path (./read-fast.ts) reads every ordinary file; a file it refuses (invalid YAML, or
// anything unusual) is read by the precise `yaml` path, whose diagnostics are the reference.

import type { Node, YAMLError } from 'yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import type { SourceFile } from './files.js';
import { readFast, Refused } from './read-fast.js';
import { readValues, type ReadNotes } from './read-precise.js';
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

export interface ParsedFile extends ReadNotes {
  src: ConfigSource;
  /**
   * The values as written: a mapping for a usable file (anything else has a config.root-type
   * finding, but its `${...}` are still reported). undefined when the file could not be read, or
   * once the load is over (load.ts releases them).
   */
  values: Json | undefined;
  /** The file's own findings (YAML syntax, aliases, an empty file...): the same in every environment. */
  diagnostics: Diagnostic[];
}

/**
 * Files parsed in this process, and how many of them by the precise path: what the tests and
 * benches observe to check that each file is parsed once per run. (A positioned Document built
 * later to locate a finding is not a parse of the values: ConfigSource.positioned tells those.)
 */
export const parseCount = { files: 0, precise: 0 };

export function parseFile(file: SourceFile): ParsedFile {
  try {
    return parseFast(file);
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    return parsePrecise(file);
  }
}

/** The fast path alone: throws Refused for a file only the precise path reads exactly. */
export function parseFast(file: SourceFile): ParsedFile {
  const { src, root, sites } = readFast(file.file, file.text, file.holder);
  parseCount.files++;
  return { src, values: root, diagnostics: [], sites, aliases: [], reported: new Set() };
}

/** The `yaml` path: slower, but reports every duplicate key, unknown alias, tag and syntax error. */
export function parsePrecise(file: SourceFile): ParsedFile {
  parseCount.files++;
  parseCount.precise++;
  const doc = yamlLib().parseDocument(file.text, YAML_OPTIONS);
  const src = new ConfigSource(file.file, file.holder ?? file.text, doc);
  const out: ParsedFile = { src, values: undefined, diagnostics: [], sites: [], aliases: [], reported: new Set() };
  const diagnostics = out.diagnostics;
  for (const e of doc.errors) diagnostics.push(fromYamlError(e, src, 'error'));
  for (const w of doc.warnings) diagnostics.push(fromYamlError(w, src, 'warning'));
  if (doc.errors.length > 0) return out;
  if (doc.contents === null) {
    diagnostics.push({ severity: 'error', code: 'config.empty', loc: src.loc(0),
      message: 'file is empty; a config needs at least `version: 1`.' });
    return out;
  }
  const root: Json | undefined = (out.values = readValues(doc, src, diagnostics, out));
  if (root !== undefined && (root === null || typeof root !== 'object' || Array.isArray(root))) {
    const got = root === null ? 'null' : Array.isArray(root) ? 'a list' : `a ${typeof root}`;
    diagnostics.push({ severity: 'error', code: 'config.root-type', loc: src.loc((doc.contents as Node).range?.[0] ?? 0),
      message: `the top level must be a mapping (version:, actions:, apps:), not ${got}.` });
  }
  return out;
}
