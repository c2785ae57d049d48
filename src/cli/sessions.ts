// menuctl sessions import FILE: a transaction record from Hover's webhook -> a session in YAML,
// personal data scrubbed, ready to paste under an action's `sessions:` (docs/sessions.md).

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Document } from 'yaml';
import { importSession, type Imported } from '../sessions/import-session.js';
import { readHoverRecords, RecordError } from '../sessions/hover-record.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { filePath } from './options.js';
import { writeUserFile } from './write-file.js';

interface ImportOptions { name?: string; out?: string }

export function register(program: Command, ctx: CliContext): void {
  const sessions = program.command('sessions').description('work with recorded USSD sessions (see docs/sessions.md)');
  sessions
    .command('import')
    .description("turn a transaction record from Hover's webhook (JSON) into a session for `sessions:`, phone numbers and names scrubbed")
    .argument('<file>', 'the webhook body or transaction JSON (- reads stdin)')
    .option('--name <name>', 'name of the session (default: "imported", the date, status and category)')
    .option('--out <file>', 'write the YAML to this file instead of stdout', filePath)
    .action(async (file: string, options: ImportOptions) => {
      const { io } = ctx;
      const text = await readInput(file, ctx);
      const records = parseRecords(text, file);
      const imported = records.map((r, i) => importSession(r, records.length > 1 && options.name ? { name: `${options.name} ${i + 1}` } : options));
      const yaml = renderImported(imported);
      if (options.out) {
        await writeUserFile('--out', resolve(io.cwd, options.out), yaml, io.secrets);
        io.stderr.write(`wrote ${imported.length} session(s) to ${options.out}\n`);
      } else io.stdout.write(yaml);
      ctx.setExit(EXIT.OK);
    });
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
    throw new CliError(`${file}: cannot read it (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory: name the JSON file' : code ?? String(err)}).`);
  }
}

function parseRecords(text: string, file: string): ReturnType<typeof readHoverRecords> {
  let doc: unknown;
  try {
    // A body saved by Windows tools (PowerShell's Out-File, Notepad) starts with a byte order mark,
    // which JSON.parse rejects as "Unexpected token".
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CliError(`${file}: not JSON (${jsonProblem(text, err as Error)}). Save the webhook's request body as it was received.`);
  }
  try {
    return readHoverRecords(doc);
  } catch (err) {
    if (err instanceof RecordError) throw new CliError(`${file}: ${err.message}`);
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
    const doc = new Document([im.session]);
    const action = im.actionName ? `Action ${JSON.stringify(im.actionName)}: paste` : 'Paste';
    doc.commentBefore = [` ${action} this under the action's \`sessions:\` and run \`menuctl test --transcript\`.`, ...im.notes.map((n) => ` ${n}`)].join('\n');
    return doc.toString({ lineWidth: 0 });
  }).join('\n');
}
