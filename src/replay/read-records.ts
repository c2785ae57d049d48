// Streams Hover webhook records from files (docs/replay.md "Records"): a `*.jsonl` file one JSON
// document per line, read line by line; a `*.json` file one document (pretty-printed or not); a
// directory every `*.json` and `*.jsonl` under it, sorted by path, so two runs read the same
// records in the same order. A year of traffic never sits in memory: one line (or one `.json`
// file) at a time, each no larger than the record limit and nested no deeper than the depth limit
// (bounded-read.ts), so one huge or deep record is an error with its file:line, not a crash.

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { boundedLines, boundedText, RecordTooLarge, tooDeepAt } from './bounded-read.js';
import { replayTransactions, type ReplayTransaction } from './transaction.js';

/** A record that cannot be read: where, and what to do. */
export class RecordReadError extends Error {
  constructor(readonly where: string, what: string) {
    super(`${where}: ${what}`);
    this.name = 'RecordReadError';
  }
}

export interface ReadRecord {
  /** file:line of the record (its first line for a pretty-printed `.json`). */
  where: string;
  transactions: ReplayTransaction[];
}

const RECORD_FILE = /\.jsonl?$/i;

/** The record files these arguments name, in reading order; throws RecordReadError for a missing one. */
export async function recordFiles(args: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) {
    const path = resolve(cwd, arg);
    let isDir: boolean;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new RecordReadError(arg, `cannot read it (${code === 'ENOENT' ? 'no such file or directory' : code ?? String(err)})`);
    }
    if (!isDir) {
      out.push(path);
      continue;
    }
    const found = (await readdir(path, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && RECORD_FILE.test(e.name))
      .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
      .sort();
    if (found.length === 0) throw new RecordReadError(arg, 'a directory with no *.json or *.jsonl file under it');
    out.push(...found);
  }
  return out;
}

export interface RecordLimits {
  /** Bytes in one record: a `.jsonl` line, a `.json` file. */
  maxBytes: number;
  /** Arrays and objects nested in one record. */
  maxDepth: number;
}

/** 1 MiB: a webhook body is a few KB; a year of them is many lines, not one. */
export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;
/** A webhook body nests 5 levels; 64 is far above that and far below what a recursion overflows at. */
export const MAX_RECORD_DEPTH = 64;
const DEFAULT_LIMITS: RecordLimits = { maxBytes: DEFAULT_MAX_RECORD_BYTES, maxDepth: MAX_RECORD_DEPTH };

/** Every record of every file, in order. */
export async function* readRecords(files: readonly string[], cwd: string, limits: RecordLimits = DEFAULT_LIMITS): AsyncGenerator<ReadRecord> {
  for (const file of files) {
    const shown = relative(cwd, file) || file;
    if (/\.jsonl$/i.test(file)) yield* readJsonLines(file, shown, limits);
    else yield readJsonFile(await readText(file, shown, limits), shown, limits);
  }
}

async function readText(file: string, shown: string, limits: RecordLimits): Promise<string> {
  const stream = createReadStream(file);
  try {
    return await boundedText(stream, limits.maxBytes);
  } catch (err) {
    if (err instanceof RecordTooLarge) {
      throw new RecordReadError(shown, `larger than ${sizeText(limits.maxBytes)} (--max-record-size): a .json file is one record, or a few; ` +
        'write a long export as .jsonl, one webhook body per line');
    }
    throw new RecordReadError(shown, `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    stream.destroy();
  }
}

async function* readJsonLines(file: string, shown: string, limits: RecordLimits): AsyncGenerator<ReadRecord> {
  const stream = createReadStream(file);
  let n = 0;
  try {
    for await (const raw of boundedLines(stream, limits.maxBytes)) {
      n += 1;
      const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (line.trim() === '') continue;
      yield parseRecord(line, `${shown}:${n}`, limits, (pos) => `${shown}:${n}:${pos === null ? line.length : pos + 1}`);
    }
  } catch (err) {
    if (err instanceof RecordReadError) throw err;
    if (err instanceof RecordTooLarge) {
      throw new RecordReadError(`${shown}:${err.line}`, `a record longer than ${sizeText(limits.maxBytes)} (--max-record-size); nothing past that was read. ` +
        'A webhook body is a few KB; a .jsonl file holds one per line');
    }
    throw new RecordReadError(shown, `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    stream.destroy();
  }
}

function readJsonFile(raw: string, shown: string, limits: RecordLimits): ReadRecord {
  const text = raw.replace(/^\uFEFF/, '');
  const start = text.search(/\S/);
  if (start < 0) throw new RecordReadError(`${shown}:1`, 'an empty file: expected one Hover webhook body (JSON)');
  const where = `${shown}:${lineCol(text, start).line}`;
  return parseRecord(text, where, limits, (pos) => {
    const at = lineCol(text, pos ?? text.trimEnd().length);
    return `${shown}:${at.line}:${at.col}`;
  });
}

function parseRecord(text: string, where: string, limits: RecordLimits, at: (position: number | null) => string): ReadRecord {
  // Before parsing: what reads the parsed record recurses (transaction.ts, hover-record.ts).
  const deep = tooDeepAt(text, limits.maxDepth);
  if (deep >= 0) {
    throw new RecordReadError(at(deep), `nested deeper than ${limits.maxDepth} arrays and objects; a webhook body nests about 5. ` +
      'Each record is one webhook body as Hover sent it');
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const { what, position } = jsonProblem((err as Error).message);
    // Ended early (a file cut mid-write): V8 says so, or names the last position.
    const short = /end of JSON input/i.test((err as Error).message) || (position !== null && position >= text.trimEnd().length);
    const cut = short ? ' (the record is cut short: was the file truncated?)' : '';
    throw new RecordReadError(at(position), `not JSON: ${what}${cut}. Each record is one webhook body as Hover sent it`);
  }
  const transactions = replayTransactions(doc);
  if (typeof transactions === 'string') throw new RecordReadError(where, transactions);
  return { where, transactions };
}

/** "1 MiB", "512 KiB", "1,000 bytes": the limit as the user would write it. */
export function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en')} bytes`;
}

/**
 * JSON.parse's complaint without the excerpt of the input V8 quotes (records hold phone numbers,
 * and errors land in CI logs), and the position it names (null: the input ended early).
 */
export function jsonProblem(message: string): { what: string; position: number | null } {
  const at = /at position (\d+)/.exec(message);
  const what = message.replace(/,?\s*".*$/s, '').replace(/\s*(?:in JSON )?at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)$/, '');
  return { what, position: at ? Number(at[1]) : null };
}

function lineCol(text: string, position: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < position; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, col: position - lineStart + 1 };
}
