// `menuctl export`: the live organization as config YAML (CONTRACT.md, version 1), such that
// planning the export against the same live state shows no changes. Only active resources are
// exported: listing an archived one in the config would make the next apply restore it.

import { Document, YAMLSeq } from 'yaml';
import { compileJavaPattern } from '../classify/java-regex.js';
import { actionAddress, appAddress, parserAddress } from '../model/address.js';
import type { RecordedScope, StepDetails } from '../model/types.js';
import { recordedAction } from '../record/record.js';
import type { LiveAction, LiveApp, LiveParser, LiveState } from '../model/types.js';
import { actionNode, appNode } from './nodes.js';
import { fileNamer } from './slug.js';

export interface ExportOptions {
  /** 'file': one menuctl.yaml; 'dir': apps.yaml plus one <action-slug>.yaml per action. */
  layout: 'file' | 'dir';
  /** Written into each file's yaml-language-server modeline, as given (relative to the files). */
  schemaPath: string;
  /** The applied-state record for this API: the step details the API does not echo, the apps it cannot list. */
  recorded?: RecordedScope | undefined;
}

export interface ExportedFile {
  /** Relative to the output (a file name, or a path inside the output directory). */
  path: string;
  content: string;
}

export interface ExportResult {
  files: ExportedFile[];
  /** What could not be exported faithfully; also written as comments in the files. */
  warnings: string[];
  /** The live resources the files declare: what the record adopts (cli/export.ts). */
  exported: { actions: { address: string; id: string }[]; apps: { address: string; id: string }[] };
}

interface Selection {
  actions: { action: LiveAction; parsers: LiveParser[]; skipped: string[] }[];
  apps: LiveApp[];
  /** archived or duplicate actions and apps, as comment lines */
  skipped: string[];
  warnings: string[];
}

export function exportConfig(live: LiveState, options: ExportOptions): ExportResult {
  const sel = select(live, options.recorded);
  const files = options.layout === 'file' ? oneFile(live, sel, options) : perAction(live, sel, options);
  const exported = {
    actions: sel.actions.map(({ action }) => ({ address: actionAddress(action.name), id: action.id })),
    apps: sel.apps.map((app) => ({ address: appAddress(app.package_name), id: app.id })),
  };
  return { files, warnings: sel.warnings, exported };
}

function select(live: LiveState, recorded: RecordedScope | undefined): Selection {
  const skipped: string[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, string>();
  const actions: Selection['actions'] = [];
  for (const action of live.actions) {
    const address = actionAddress(action.name);
    if (action.archived_at !== null) {
      skipped.push(`${address} (id ${action.id}): archived`);
      continue;
    }
    const first = seen.get(action.name);
    if (first !== undefined) {
      const msg = `${address} (id ${action.id}): same name as id ${first}; names must be unique in the config, so only id ${first} was exported. Rename one live.`;
      skipped.push(msg);
      warnings.push(msg);
      continue;
    }
    seen.set(action.name, action.id);
    actions.push({ action, ...selectParsers(action, live.parsers, warnings) });
  }
  const apps: LiveApp[] = [];
  const seenApps = new Set<string>();
  for (const app of live.apps) {
    const address = appAddress(app.package_name);
    if (app.archived_at !== null) skipped.push(`${address} (id ${app.id}): archived`);
    else if (seenApps.has(app.package_name)) {
      const msg = `${address} (id ${app.id}): a second app with this package name was not exported`;
      skipped.push(msg);
      warnings.push(msg);
    } else {
      seenApps.add(app.package_name);
      apps.push(app);
    }
  }
  if (!live.apps_listed) {
    // Issue 34 item 1: an app the export could not see, later written into the config by hand,
    // would be planned as new; these are the two ways to tie it to its live id first.
    warnings.push(`The server has no GET /api/apps: apps could not be listed, so only the apps ${recorded?.scope ? `${recorded.file} records` : 'read by pinned id'} are exported. `
      + 'Before adding an app that already exists to the config, tie it to its live id (from the web console): `id: "ID"` on the app, or `menuctl import \'app["PACKAGE"]\' ID`; otherwise apply creates it a second time.');
  }
  return { actions, apps, skipped, warnings };
}

function selectParsers(action: LiveAction, all: LiveParser[], warnings: string[]) {
  const parsers: LiveParser[] = [];
  const skipped: string[] = [];
  const seen = new Map<string, string>();
  for (const p of all) {
    if (p.action_id !== action.id) continue;
    const address = parserAddress(action.name, p.category);
    if (p.archived_at !== null) skipped.push(`${address} (id ${p.id}): archived`);
    else if (seen.has(p.category)) {
      const msg = `${address} (id ${p.id}): same category as id ${seen.get(p.category)}; only that one was exported`;
      skipped.push(msg);
      warnings.push(msg);
    } else {
      seen.set(p.category, p.id);
      parsers.push(p);
      // The API stores a regex without compiling it: one Java rejects is exported as it is, and
      // the exported config then fails `validate` until it is fixed. Said here, not there.
      const problem = javaRejects(p.regex);
      if (problem !== null) {
        warnings.push(`${address} (id ${p.id}): its regex does not compile in Java (${problem}), so no device can use it; exported as it is, the config will not validate until the regex is fixed`);
      }
    }
  }
  return { parsers, skipped };
}

function javaRejects(regex: string): string | null {
  const compiled = compileJavaPattern(regex);
  if (compiled.ok) return null;
  const error = compiled.issues.find((i) => i.severity === 'error');
  return error ? error.message.replace(/^does not compile in Java: /, '') : null;
}

function header(live: LiveState, options: ExportOptions, skipped: string[], warnings: string[]): string {
  const lines = [
    ` yaml-language-server: $schema=${options.schemaPath}`,
    ` Exported by \`menuctl export\`${live.organization_id === null ? '' : ` from organization ${live.organization_id}`}.`,
    options.recorded?.scope
      ? ` Step kinds and details come from ${options.recorded.file} where it holds them, else are inferred from values; see docs/output.md.`
      : ' Step kinds are inferred from values (the API returns nothing else); see docs/output.md.',
  ];
  if (skipped.length > 0) {
    lines.push(' Not exported (an archived resource listed here would be restored by the next apply):');
    for (const s of skipped) lines.push(`   ${s}`);
  }
  for (const w of warnings) lines.push(` Warning: ${w}`);
  return lines.join('\n');
}

function newDoc(live: LiveState): Document {
  const doc = new Document({});
  doc.set('version', 1);
  if (live.organization_id !== null) doc.set('organization_id', live.organization_id);
  return doc;
}

function render(doc: Document): string {
  // lineWidth 0: never fold long regexes or messages across lines.
  return doc.toString({ lineWidth: 0 });
}

function oneFile(live: LiveState, sel: Selection, options: ExportOptions): ExportedFile[] {
  const doc = newDoc(live);
  const actions = new YAMLSeq();
  for (const a of sel.actions) actions.items.push(actionNode(doc, a.action, a.parsers, live.operators, recordedSteps(options.recorded, a.action)));
  doc.set('actions', actions);
  doc.set('apps', appsSeq(doc, sel.apps, !live.apps_listed));
  const skipped = [...sel.skipped, ...sel.actions.flatMap((a) => a.skipped)];
  doc.commentBefore = header(live, options, skipped, appsWarning(live, options.recorded));
  return [{ path: 'menuctl.yaml', content: render(doc) }];
}

function perAction(live: LiveState, sel: Selection, options: ExportOptions): ExportedFile[] {
  const main = newDoc(live);
  main.set('apps', appsSeq(main, sel.apps, !live.apps_listed));
  main.commentBefore = header(live, options, sel.skipped, appsWarning(live, options.recorded));
  const files: ExportedFile[] = [{ path: 'apps.yaml', content: render(main) }];
  const name = fileNamer();
  for (const a of sel.actions) {
    const doc = newDoc(live);
    const seq = new YAMLSeq();
    seq.items.push(actionNode(doc, a.action, a.parsers, live.operators, recordedSteps(options.recorded, a.action)));
    doc.set('actions', seq);
    doc.commentBefore = header(live, options, a.skipped, []);
    files.push({ path: name(a.action.name, a.action.id), content: render(doc) });
  }
  return files;
}

function appsSeq(doc: Document, apps: LiveApp[], pinIds: boolean): YAMLSeq {
  const seq = new YAMLSeq();
  for (const app of apps) seq.items.push(appNode(doc, app, pinIds));
  if (apps.length === 0) seq.flow = true;
  return seq;
}

function appsWarning(live: LiveState, recorded: RecordedScope | undefined): string[] {
  if (live.apps_listed) return [];
  const tie = 'An app that exists but is not here: add it with `id: "ID"`, or run `menuctl import \'app["PACKAGE"]\' ID`, before applying, or it is created twice.';
  if (recorded?.scope) return [`the server cannot list apps: these are the apps ${recorded.file} records. ${tie}`];
  return [`the server could not list apps; only apps pinned by id were read. ${tie}`];
}

/** The recorded steps of a live action (applied by menuctl to this very id), if any. */
function recordedSteps(recorded: RecordedScope | undefined, action: LiveAction): StepDetails[] {
  return recordedAction(recorded?.scope, actionAddress(action.name), action.id)?.steps ?? [];
}
