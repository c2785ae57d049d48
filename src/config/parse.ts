// One file's text -> a ConfigTree (plain values + positions), or located diagnostics.
// Never throws on bad input: every problem becomes a Diagnostic with file:line:col.
// The fast parser (./fast-tree.ts) reads every file; a file it refuses (invalid YAML, or anything
// unusual) is read again by the precise `yaml` path, whose diagnostics are the reference.

import type { Node, YAMLError } from 'yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import { addressOfPath } from './addresses.js';
import { parseFast, Refused } from './fast-tree.js';
import type { SourceFile } from './files.js';
import { ConfigTree, type Json } from './tree.js';
import { buildTree, posOf } from './yaml-tree.js';
import { yamlLib } from './yaml-lib.js';
import { yamlErrorAdvice } from './yaml-advice.js';

const YAML_CODES: Record<string, string> = {
  DUPLICATE_KEY: 'yaml.duplicate-key',
  MULTIPLE_DOCS: 'yaml.multi-document',
  TAG_RESOLVE_FAILED: 'yaml.tag',
};

const YAML_HINTS: Record<string, string> = {
  DUPLICATE_KEY: 'this key appears twice in the same mapping; keep one.',
  MULTIPLE_DOCS: 'the file holds several YAML documents (`---`); put each in its own file.',
};

function fromYamlError(e: YAMLError, tree: ConfigTree, severity: Diagnostic['severity']): Diagnostic {
  const code = YAML_CODES[e.code] ?? 'yaml.syntax';
  const detail = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const advice = YAML_HINTS[e.code] === undefined ? yamlErrorAdvice(e, tree.text) : undefined;
  const message = YAML_HINTS[e.code] ?? advice?.message ?? `${detail}. Fix the YAML syntax here.`;
  return { severity, code, message, loc: tree.loc(advice?.offset ?? e.pos[0]) };
}

export interface ParsedFile {
  tree: ConfigTree;
  /** null when the file could not be read as one YAML mapping. */
  root: Record<string, unknown> | null;
}

export function parseFile(src: SourceFile, env: Record<string, string | undefined>, diagnostics: Diagnostic[]): ParsedFile {
  let parsed: ParsedFile;
  try {
    parsed = parseFast(src.file, src.text, env, diagnostics);
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    parsed = parsePrecise(src, env, diagnostics);
  }
  if (parsed.root) {
    for (const { diagnostic, path } of parsed.tree.pending) {
      const address = addressOfPath(parsed.root, path);
      if (address) diagnostic.address = address;
    }
  }
  return parsed;
}

/** The `yaml` path: slower, but reports every duplicate key, unknown alias, tag and syntax error. */
export function parsePrecise(src: SourceFile, env: Record<string, string | undefined>, diagnostics: Diagnostic[]): ParsedFile {
  const tree = new ConfigTree(src.file, src.text);
  const doc = yamlLib().parseDocument(src.text, { prettyErrors: false, uniqueKeys: true, strict: true });
  for (const e of doc.errors) diagnostics.push(fromYamlError(e, tree, 'error'));
  for (const w of doc.warnings) diagnostics.push(fromYamlError(w, tree, 'warning'));
  if (doc.errors.length > 0) return { tree, root: null };
  if (doc.contents === null) {
    diagnostics.push({ severity: 'error', code: 'config.empty', loc: tree.loc(0),
      message: 'file is empty; a config needs at least `version: 1`.' });
    return { tree, root: null };
  }
  const root: Json | undefined = buildTree(doc, tree, env, diagnostics);
  if (root === undefined) return { tree, root: null };
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    const got = root === null ? 'null' : Array.isArray(root) ? 'a list' : `a ${typeof root}`;
    diagnostics.push({ severity: 'error', code: 'config.root-type', loc: tree.nodeLoc(posOf(doc.contents as Node)),
      message: `the top level must be a mapping (version:, actions:, apps:), not ${got}.` });
    return { tree, root: null };
  }
  return { tree, root };
}
