// Reading a JSON file that may be longer than one string can hold (a big saved plan; V8's
// longest string is ~512 M characters): the file is read in chunks and
// parsed piece by piece (src/text/json-pieces.ts), so neither its text nor its bytes are ever
// held whole.

import { createReadStream } from 'node:fs';
import { parseJsonChunks } from '../text/json-pieces.js';

/** Chunk size: large enough that reading costs few calls, small next to the pieces' own memory. */
const CHUNK = 1 << 20;

/**
 * The value of the JSON file at `path`, as JSON.parse of its text would give it. Throws
 * JsonSyntaxError when the text is not JSON, and the file system's error (ENOENT, EISDIR, EACCES)
 * when it cannot be read.
 */
export async function readJsonFile(path: string): Promise<unknown> {
  return parseJsonChunks(createReadStream(path, { highWaterMark: CHUNK }));
}
