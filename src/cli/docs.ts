// menuctl docs [PATH...] --out DIR: one Markdown page per config file with a Mermaid flowchart per
// action (docs/sessions.md "Pictures"). Offline; writes each page whole (temp file, then rename).

import { basename, extname, join, relative, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { DesiredAction } from '../model/types.js';
import { diagnosticsSummary, renderDiagnosticsText } from '../report/diagnostics.js';
import { renderDocsPage } from '../report/docs-page.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit.js';
import { useColor } from './io.js';
import { writeUserFile } from './write-file.js';
import { selectEnvironment, type EnvFlags } from './environment.js';

/** `menuctl docs`'s handler; docs-command.ts has its flags. */
export async function runDocs(paths: string[], options: { out: string } & EnvFlags, ctx: CliContext): Promise<void> {
  const { io } = ctx;
  // A config with environments describes a different menu in each (codes, parsers, apps):
  // the pages show one, chosen as for plan.
  const { environment, config } = await selectEnvironment(paths, options, io);
  const loaded = await loadConfig(paths, { env: io.env, cwd: io.cwd, ...(environment ? { environment: environment.name } : {}), read: config });
  if (!loaded.state) {
    io.stderr.write(renderDiagnosticsText(loaded.diagnostics, { sources: loaded.sources, color: useColor(io, 'stderr') }));
    io.stderr.write(`invalid config: ${diagnosticsSummary(loaded.diagnostics)}; no pages written (see menuctl validate)\n`);
    ctx.setExit(EXIT.ERROR);
    return;
  }
  const byFile = new Map<string, DesiredAction[]>(loaded.state.files.map((f) => [f, []]));
  for (const a of loaded.state.actions) byFile.get(a.loc?.file ?? loaded.state.files[0]!)?.push(a);
  const pages = [...byFile].filter(([, actions]) => actions.length > 0);
  const names = pageNames(pages.map(([file]) => file));
  const dir = resolve(io.cwd, options.out);
  for (const [i, [file, actions]] of pages.entries()) {
    await writeUserFile('--out', join(dir, names[i]!), renderDocsPage({ file, actions }), io.secrets);
  }
  const rel = relative(io.cwd, dir);
  const shown = rel === '' ? '.' : rel.startsWith('..') ? dir : rel;
  io.stdout.write(pages.length === 0
    ? 'no actions in the config: no pages written\n'
    : `wrote ${pages.length} page(s) to ${shown}: ${names.join(', ')}\n`);
  ctx.setExit(EXIT.OK);
}

/** `mpesa-kenya.yaml` -> `mpesa-kenya.md`; two files of one name in different folders keep their path. */
function pageNames(files: readonly string[]): string[] {
  const base = (f: string) => basename(f, extname(f));
  const counts = new Map<string, number>();
  for (const f of files) counts.set(base(f), (counts.get(base(f)) ?? 0) + 1);
  return files.map((f) => `${counts.get(base(f))! > 1 ? f.slice(0, -extname(f).length).replace(/[\\/]+/g, '-').replace(/^[.-]+/, '') : base(f)}.md`);
}
