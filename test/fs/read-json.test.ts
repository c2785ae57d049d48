// A JSON file read in chunks of 1 MiB and parsed in pieces (src/fs/read-json.ts): what
// JSON.parse of its text gives, with characters cut between chunks, and the file system's errors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFile } from '../../src/fs/read-json.js';
import { JsonSyntaxError } from '../../src/text/json-pieces.js';

const dir = () => mkdtempSync(join(tmpdir(), 'menuctl-read-json-'));

describe('readJsonFile', () => {
  it('reads a file of several chunks as JSON.parse reads its text, characters cut between chunks too', async () => {
    const file = join(dir(), 'plan.json');
    const doc = { format_version: 1, changes: Array.from({ length: 20_000 }, (_, i) => ({ i, name: `é✓𐀀 ${'x'.repeat(i % 300)}` })), summary: { n: 1 } };
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    writeFileSync(file, text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 << 20);
    expect(await readJsonFile(file)).toEqual(JSON.parse(text));
  });

  it('throws JsonSyntaxError for a text that is not JSON, and the file system\'s error for a file it cannot read', async () => {
    const d = dir();
    writeFileSync(join(d, 'cut.json'), '{"changes": [{"op": "create"},');
    await expect(readJsonFile(join(d, 'cut.json'))).rejects.toBeInstanceOf(JsonSyntaxError);
    await expect(readJsonFile(join(d, 'missing.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readJsonFile(d)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
