#!/usr/bin/env node
// Checks src/'s import graph against the layer order in docs/architecture.md ("Layers"):
//  - no cycle between files (Tarjan's strongly connected components over every relative import),
//  - no cycle between folders (the same over the folder graph),
//  - every import between folders goes down the layer table below (a folder imports only folders
//    in lower layers; folders that share a layer do not import each other),
//  - nothing under src/ imports from test/ or bench/.
// Every kind of import counts, `import type` too: a type-only cycle still ties the files' meaning
// together, and the next edit that needs a value turns it into a runtime cycle.
//
// Usage: node scripts/check-layers.mjs [--root <dir>] [--json]
// Exit 0 when there is no problem, 1 otherwise. `checkLayers({ root, layers })` is the same check
// as a function, for tests.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Lowest first. The same table as docs/architecture.md; change both together.
export const LAYERS = [
  ['generated', 'text'], // generated validators; pure string helpers: no menuctl imports at all
  ['model'], // the shared vocabulary: kinds, shapes, canonical forms, diagnostics, the API seam
  ['fs', 'classify', 'record'], // file I/O primitives; the device's regex semantics; the record's format
  ['config', 'state', 'server'], // files -> DesiredState; where the record is kept; the reference API (beside the pipeline)
  ['api'], // the HTTP client and live reads
  ['plan'], // pure: desired + live -> Plan / Drift
  ['apply'], // carries out a Plan, tells the record
  ['sessions', 'export'], // simulated sessions; live state -> config
  ['replay'], // recorded sessions against the config (uses sessions/)
  ['engine'], // plan, apply, drift, export as functions of desired, live and the record: what the commands call
  ['report'], // renderers: every stage's values -> strings
  ['analyze'], // regex analysis and its report
  ['cli'], // commands
  ['action'], // the GitHub Action, a caller of the CLI
];

// TypeScript's own pre-processor finds every import the compiler would (static, `import type`,
// `export ... from`, `import('…')` with a string literal, `typeof import('…')`), and none in a
// comment or a string.
const ts = createRequire(import.meta.url)('typescript');

export function importSpecifiers(text) {
  return [...new Set(ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName))];
}

function listTs(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

function resolveSpecifier(fromFile, spec) {
  if (!spec.startsWith('.')) return undefined; // a package or node: builtin
  const base = resolve(dirname(fromFile), spec);
  const candidates = [base.replace(/\.(m|c)?js$/, '.$1ts'), base, `${base}.ts`, join(base, 'index.ts')];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
  return base; // unresolved: still tells us where it points
}

/** Tarjan's strongly connected components; returns those with more than one node or a self-loop. */
export function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? new Set()).has(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

const folderOf = (rel) => (rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.');

/**
 * @param {{ root: string, layers?: string[][], forbidden?: string[] }} options root is the source
 *   folder (src/); forbidden are folders beside it that it must not import from.
 */
export function checkLayers({ root, layers = LAYERS, forbidden = ['test', 'bench'] }) {
  const rootAbs = resolve(root);
  const rel = (p) => relative(rootAbs, p).split(sep).join('/');
  const layerOf = new Map();
  layers.forEach((folders, i) => folders.forEach((f) => layerOf.set(f, i)));

  const files = listTs(rootAbs);
  const fileGraph = new Map();
  const folderEdges = new Map(); // "a -> b" -> [file imports]
  const problems = [];
  for (const file of files) {
    const from = rel(file);
    const deps = new Set();
    fileGraph.set(from, deps);
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, spec);
      if (!target) continue;
      const to = rel(target);
      if (to.startsWith('../')) {
        const outside = to.split('/').find((s) => s !== '..');
        if (forbidden.includes(outside)) problems.push({ kind: 'outside', message: `${from} imports ${spec} (${outside}/ is not part of the program)` });
        continue;
      }
      deps.add(to);
      const a = folderOf(from);
      const b = folderOf(to);
      if (a !== b) {
        const key = `${a} -> ${b}`;
        if (!folderEdges.has(key)) folderEdges.set(key, []);
        folderEdges.get(key).push(`${from} -> ${to}`);
      }
    }
  }

  for (const scc of cycles(fileGraph)) problems.push({ kind: 'file-cycle', message: `files in a cycle: ${scc.join(', ')}` });

  const folderGraph = new Map();
  for (const key of folderEdges.keys()) {
    const [a, b] = key.split(' -> ');
    if (!folderGraph.has(a)) folderGraph.set(a, new Set());
    folderGraph.get(a).add(b);
  }
  for (const scc of cycles(folderGraph)) problems.push({ kind: 'folder-cycle', message: `folders in a cycle: ${scc.join(', ')}` });

  const folders = new Set(files.map((f) => folderOf(rel(f))));
  for (const f of [...folders].sort()) {
    if (!layerOf.has(f)) problems.push({ kind: 'unlayered', message: `folder ${f}/ is not in the layer table` });
  }
  for (const [key, imports] of [...folderEdges].sort()) {
    const [a, b] = key.split(' -> ');
    if (!layerOf.has(a) || !layerOf.has(b)) continue;
    if (layerOf.get(b) < layerOf.get(a)) continue;
    const how = layerOf.get(b) === layerOf.get(a) ? 'beside it' : 'above it';
    for (const imp of imports) problems.push({ kind: 'layer', message: `${a}/ imports ${b}/, which is ${how}: ${imp}` });
  }
  return { files: files.length, problems, folderEdges };
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const here = dirname(fileURLToPath(import.meta.url));
  const root = at >= 0 ? args[at + 1] : join(here, '..', 'src');
  const { files, problems } = checkLayers({ root });
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ files, problems }, null, 2)}\n`);
  } else {
    for (const p of problems) process.stdout.write(`${p.kind}: ${p.message}\n`);
    const count = (k) => problems.filter((p) => p.kind === k).length;
    process.stdout.write(
      `${files} files; ${count('file-cycle')} file cycles, ${count('folder-cycle')} folder cycles, ` +
        `${count('layer')} imports against the layers, ${count('outside')} imports from test/ or bench/, ` +
        `${count('unlayered')} folders not in the table\n`,
    );
  }
  process.exitCode = problems.length ? 1 : 0;
}
