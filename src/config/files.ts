// Finds and reads config files: PATH arguments -> decoded UTF-8 sources, or located diagnostics.
// Reading is the only I/O in src/config; everything after this works on strings.

import type { BigIntStats } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../model/diagnostic.js';
import { PackedText } from '../text/packed-text.js';

/** Larger files are refused before reading: a config this big is a mistake or an attack. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

export const DEFAULT_CONFIG = 'menuctl.yaml';

export interface SourceFile {
  /** As shown to the user: relative to cwd when under it, else absolute. */
  file: string;
  readonly text: string;
  /** Set for files read from disk: the text's holder, which the load may pack (text/packed-text.ts). */
  holder?: PackedText;
}

/** A file read from disk: its text in a holder the load may pack, so every reader shares one copy. */
class ReadFile implements SourceFile {
  constructor(readonly file: string, readonly holder: PackedText) {}
  get text(): string {
    return this.holder.text;
  }
}

export interface ReadResult {
  files: SourceFile[];
  diagnostics: Diagnostic[];
  /** What this read found, for a later read of the same files in the same command (readSources's `earlier`). */
  texts: ReadTexts;
}

function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel.split(path.sep).join('/');
}

const isConfigName = (name: string) => /\.ya?ml$/i.test(name);

/** All *.yaml / *.yml beneath dir (hidden entries skipped), sorted for a stable merge order. */
async function listDir(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found: string[] = [];
  for (const e of entries) {
    const full = path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    const rel = path.relative(dir, full);
    if (rel.split(path.sep).some((seg) => seg.startsWith('.'))) continue;
    if (!isConfigName(e.name)) continue;
    if (e.isFile() || (e.isSymbolicLink() && (await stat(full).catch(() => null))?.isFile())) found.push(full);
  }
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Expands PATH arguments (files or directories) into absolute file paths. */
export async function resolvePaths(paths: string[], cwd: string): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const given = paths.length > 0 ? paths : [DEFAULT_CONFIG];
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const p of given) {
    const abs = path.resolve(cwd, p);
    let st: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      st = await stat(abs);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') {
        diagnostics.push({ severity: 'error', code: 'config.read', message: `${p}: a symbolic link that loops back on itself; point it at the config file.` });
        continue;
      }
    }
    if (!st) {
      const hint = paths.length === 0 ? ' (no PATH given, so menuctl looked for ./menuctl.yaml; pass a file or directory)' : '';
      diagnostics.push({ severity: 'error', code: 'config.not-found', message: `${p}: no such file or directory${hint}.` });
      continue;
    }
    if (st.isDirectory()) {
      const list = await listDir(abs);
      if (list.length === 0) {
        diagnostics.push({ severity: 'error', code: 'config.no-files', message: `${p}: directory contains no *.yaml or *.yml files.` });
      }
      for (const f of list) files.push(f);
    } else {
      files.push(abs);
    }
  }
  return { files: [...new Set(files)], diagnostics };
}

/** Offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    let min = 0;
    if (b < 0x80) { i++; continue; }
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function byteLineCol(bytes: Uint8Array, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) { line++; lineStart = i + 1; }
  // Columns count characters, and everything before the bad byte on this line is valid UTF-8.
  const col = new TextDecoder().decode(bytes.subarray(lineStart, offset)).length + 1;
  return { line, col };
}

/**
 * UTF-16 text, by its byte-order mark, or without one by NULs in every other byte of its first
 * characters (YAML text is mostly ASCII; in UTF-8 a NUL is valid but never written). Without this
 * a BOM-less file is read as a string of letters and NULs and fails as "not a mapping".
 */
export function utf16Of(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  const n = Math.min(bytes.length, 16) & ~1;
  if (n < 4) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  if (odd === n / 2 && even === 0) return 'UTF-16LE';
  if (even === n / 2 && odd === 0) return 'UTF-16BE';
  return null;
}

/** Decodes strict UTF-8 (a BOM is dropped); on failure returns the location of the first bad byte. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { line: number; col: number } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return byteLineCol(bytes, Math.max(0, firstInvalidUtf8(bytes)));
  }
}

async function readAtMost(abs: string, limit: number): Promise<Buffer> {
  const fh = await open(abs, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < limit) {
      const { bytesRead, buffer } = await fh.read(Buffer.alloc(Math.min(1 << 20, limit - total)), 0, Math.min(1 << 20, limit - total), null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
    return Buffer.concat(chunks);
  } finally {
    await fh.close();
  }
}

/**
 * The texts of a read, by absolute path, with the identity of the file they came from. A command
 * that needs the environments before connecting (`--env` picks the URL) reads the config, then
 * loads it: the load is given the first read's texts (config/load.ts ConfigRead), so its read is a
 * stat per file. Passed as a value, never kept here: two commands in one process share nothing.
 * A file whose inode, size, mtime or ctime changed since is read again. As git does with its
 * index, a file changed less than RACY_MS before it was read is not kept: file systems stamp
 * times coarsely (a clock tick, up to 2 s on some), so a write just after could leave every stamp
 * as it was.
 */
export type ReadTexts = ReadonlyMap<string, ReadText>;

interface ReadText {
  stamp: string;
  holder: PackedText;
}

const RACY_MS = 2000;

const stampOf = (st: BigIntStats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

async function readOne(abs: string, cwd: string, earlier: ReadTexts | undefined, read: Map<string, ReadText>): Promise<SourceFile | Diagnostic> {
  const file = displayPath(abs, cwd);
  const at = { file, line: 1, col: 1 };
  const readAt = Date.now();
  const st = await stat(abs, { bigint: true });
  if (st.isFile()) {
    const stamp = stampOf(st);
    const known = earlier?.get(abs);
    if (known?.stamp === stamp) {
      read.set(abs, known);
      return new ReadFile(file, known.holder);
    }
  }
  if (st.size > MAX_FILE_BYTES) {
    return { severity: 'error', code: 'config.too-large', loc: at,
      message: `file is ${st.size} bytes; the limit is ${MAX_FILE_BYTES} bytes (16 MiB). Split the config into several files in a directory.` };
  }
  // A device or a pipe has no size to check beforehand (/dev/zero would be read until memory
  // runs out): read at most one byte over the limit.
  const bytes = st.isFile() ? await readFile(abs) : await readAtMost(abs, MAX_FILE_BYTES + 1);
  if (bytes.length > MAX_FILE_BYTES) {
    return { severity: 'error', code: 'config.too-large', loc: at,
      message: `reading it gave more than ${MAX_FILE_BYTES} bytes (16 MiB), the limit. Name a config file, not a device or an endless stream.` };
  }
  const utf16 = utf16Of(bytes);
  if (utf16 !== null) {
    return { severity: 'error', code: 'config.encoding', loc: at,
      message: `file is ${utf16}, not UTF-8 (what some Windows editors call "Unicode"). Re-save it as UTF-8.` };
  }
  const decoded = decodeUtf8(bytes);
  if ('line' in decoded) {
    return { severity: 'error', code: 'config.encoding', loc: { file, ...decoded },
      message: 'file is not valid UTF-8 (first bad byte here). Re-save it as UTF-8.' };
  }
  const settled = Number(st.mtimeNs) / 1e6 < readAt - RACY_MS;
  const holder = new PackedText(decoded.text);
  if (st.isFile() && settled) read.set(abs, { stamp: stampOf(st), holder });
  return new ReadFile(file, holder);
}

/**
 * Resolves PATH arguments and reads every file; problems come back as diagnostics, never thrown.
 * `earlier`: an earlier read's texts in this command, reused for the files that did not change.
 */
export async function readSources(paths: string[], cwd: string, earlier?: ReadTexts): Promise<ReadResult> {
  const resolved = await resolvePaths(paths, cwd);
  const files: SourceFile[] = [];
  const diagnostics = [...resolved.diagnostics];
  const read = new Map<string, ReadText>();
  for (const abs of resolved.files) {
    try {
      const r = await readOne(abs, cwd, earlier, read);
      if (!('severity' in r)) files.push(r);
      else diagnostics.push(r);
    } catch (e) {
      diagnostics.push({ severity: 'error', code: 'config.read', loc: { file: displayPath(abs, cwd), line: 1, col: 1 },
        message: `cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Check that it exists and is readable.` });
    }
  }
  return { files, diagnostics, texts: read };
}
