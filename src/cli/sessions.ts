// menuctl sessions import FILE: a transaction record from Hover's webhook -> a session in YAML,
// personal data scrubbed, ready to paste under an action's `sessions:` (docs/sessions.md).

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Document } from 'yaml';
import { loadConfig } from '../config/load.js';
import { diagnosticsSummary, renderDiagnosticsText } from '../report/diagnostics.js';
import { importSession, type Imported } from '../sessions/import-session.js';
import { useColor } from './io.js';
import { readHoverRecords, RecordError } from '../sessions/hover-record.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { writeUserFile } from './write-file.js';

export interface ImportOptions { name?: string; out?: string }

type Actions = NonNullable<Awaited<ReturnType<typeof loadConfig>>['state']>['actions'];

/** `menuctl sessions import`'s handler; sessions-command.ts has its flags. */
export async function runSessionsImport(file: string, paths: string[], options: ImportOptions, ctx: CliContext): Promise<void> {
  const { io } = ctx;
  const text = await readInput(file, ctx);
  const records = parseRecords(text, file);
  const actions = paths.length > 0 ? await configActions(paths, ctx) : undefined;
  if (actions === null) return;
  const imported = records.map((r, i) => {
    const name = records.length > 1 && options.name ? `${options.name} ${i + 1}` : options.name;
    const action = actions && findAction(actions, r.actionPublicId, r.actionName);
    const im = importSession(r, { ...(name !== undefined ? { name } : {}), ...(action ? { action } : {}) });
    if (actions && !action && im.session) {
      im.notes.push(`No action ${r.actionName === null ? 'for this record' : JSON.stringify(im.actionName)} in ${paths.join(' ')}: variables come from input_extras only.`);
    }
    return im;
  });
  const yaml = renderImported(imported);
  if (options.out) {
    await writeUserFile('--out', resolve(io.cwd, options.out), yaml, io.secrets);
    io.stderr.write(`wrote ${imported.length} session(s) to ${options.out}\n`);
  } else io.stdout.write(yaml);
  ctx.setExit(EXIT.OK);
}

/** The config's actions, or null after reporting why the config cannot be read. */
async function configActions(paths: string[], ctx: CliContext): Promise<Actions | null> {
  const { io } = ctx;
  const loaded = await loadConfig(paths, { env: io.env, cwd: io.cwd });
  if (!loaded.state) {
    io.stderr.write(renderDiagnosticsText(loaded.diagnostics, { sources: loaded.sources, color: useColor(io, 'stderr') }));
    io.stderr.write(`invalid config: ${diagnosticsSummary(loaded.diagnostics)}; nothing imported (see menuctl validate)\n`);
    ctx.setExit(EXIT.ERROR);
    return null;
  }
  return loaded.state.actions;
}

/** The record's action: by its live id where the config pins one, else by name. */
function findAction(actions: Actions, publicId: string | null, name: string | null): Actions[number] | undefined {
  return (publicId !== null ? actions.find((a) => a.id === publicId) : undefined) ?? actions.find((a) => a.name === name);
}

async function readInput(file: string, ctx: CliContext): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of ctx.io.stdin) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(resolve(ctx.io.cwd, file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`${file}: cannot read it (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory: name the JSON file' : code ?? String(err)}).`, { code: 'input.unreadable' });
  }
}

function parseRecords(text: string, file: string): ReturnType<typeof readHoverRecords> {
  let doc: unknown;
  try {
    // A body saved by Windows tools (PowerShell's Out-File, Notepad) starts with a byte order mark,
    // which JSON.parse rejects as "Unexpected token".
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CliError(`${file}: not JSON (${jsonProblem(text, err as Error)}). Save the webhook's request body as it was received.`, { code: 'input.not-json' });
  }
  try {
    return readHoverRecords(doc);
  } catch (err) {
    if (err instanceof RecordError) throw new CliError(`${file}: ${err.message}`, { code: 'input.not-a-record' });
    throw err;
  }
}

/**
 * JSON.parse's complaint without the piece of the input V8 quotes ("+254712345"... is not valid
 * JSON): the file holds personal data, and error output lands in CI logs. The position becomes a
 * line and column.
 */
function jsonProblem(text: string, err: Error): string {
  // Everything from the first quote on is V8's excerpt of the input (which may itself hold quotes).
  const what = err.message.replace(/,?\s*".*$/s, '').replace(/\s*(?:in JSON )?at position \d+.*$/s, '');
  const at = /at position (\d+)/.exec(err.message);
  if (!at) return what;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `${what} at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

/** A YAML list of sessions, each with its notes as a comment, to paste under `sessions:`. */
export function renderImported(list: readonly Imported[]): string {
  return list.map((im) => {
    const doc = new Document(im.session ? [im.session] : im.fixtures);
    const action = im.actionName ? `Action ${JSON.stringify(im.actionName)}: paste` : 'Paste';
    const where = im.session ? "`sessions:` and run `menuctl test --transcript`" : '`tests:` and run `menuctl test`';
    doc.commentBefore = [` ${action} this under the action's ${where}.`, ...im.notes.map((n) => ` ${n}`)].join('\n');
    return doc.toString({ lineWidth: 0 });
  }).join('\n');
}
