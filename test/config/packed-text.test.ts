// A big config's text is kept packed after the load, and positions and source lines still come
// back exactly when a finding needs them.
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadEnvironments, loadSources } from '../../src/config/load.js';
import { readSources } from '../../src/config/files.js';
import { PackedText } from '../../src/text/packed-text.js';

function bigConfig(actions: number): string {
  const out = ['version: 1', 'actions:'];
  for (let i = 0; i < actions; i++) {
    out.push(`  - name: Action ${i}`, `    root_code: "*${100 + (i % 800)}*${i}#"`, '    transport_type: ussd', '    operators: [2172]', '    parsers:',
      '      - category: ok', '        status: succeeded', `        regex: 'Reply ${i}: (?<v>\\d+)'`, `        user_message: '${'Your balance is {v}. '.repeat(20)}'`);
  }
  return `${out.join('\n')}\n`;
}

describe('PackedText', () => {
  it('gives back the same text after packing, and drops the plain copy on release', () => {
    const text = `héllo ${'x'.repeat(10_000)} — 日本\n`;
    const t = new PackedText(text);
    expect(t.isPacked).toBe(false);
    t.pack();
    expect(t.isPacked).toBe(true);
    expect(t.text).toBe(text);
    t.release();
    expect(t.text).toBe(text);
  });
});

describe('a config over 4 MiB', () => {
  it('is packed once loaded; its locations and source lines are exactly those of the plain text', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-packed-'));
    const file = path.join(dir, 'big.yaml');
    const text = bigConfig(8_000);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    writeFileSync(file, text);
    utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000)); // settled: the read keeps it
    const { read } = await loadEnvironments([file], { cwd: dir, env: {} });
    const texts = read.texts!;
    const loaded = await loadConfig([file], { cwd: dir, env: {}, read });
    expect(loaded.diagnostics).toEqual([]);
    const holder = (await readSources([file], dir, texts)).files[0]!.holder;
    // A read after the load, given the command's first read, is served from the same holder (the
    // file did not change) ...
    expect(holder?.isPacked).toBe(true);
    // ... and a location worked out now is the one the text says.
    const action = loaded.state!.actions[4_999]!;
    const loc = action.parsers[0]!.loc!;
    const line = text.split('\n').findIndex((l) => l.includes("'Reply 4999:")) + 1;
    expect({ line: loc.line, col: loc.col }).toEqual({ line: line - 2, col: 9 });
    expect(loaded.sources.get('big.yaml')).toBe(text);
  });

  it('holds one file\'s text plain at a time while it loads, and gives the same model and findings', async () => {
    const texts = [0, 1, 2].map((k) => bigConfig(3_000).replaceAll('Action ', `Action ${k}-`));
    // One mistake in the last file: its finding is located after the load, from the packed text.
    texts[2] = texts[2]!.replace('transport_type: ussd', 'transport_type: carrier-pigeon');
    expect(texts.reduce((n, t) => n + t.length, 0)).toBeGreaterThan(4 * 1024 * 1024);
    const holders: PackedText[] = [];
    let mostPlain = 0;
    class Watched extends PackedText {
      override get text(): string {
        const t = super.text;
        // Counted once all are packed (they are plain as read, until the load packs them first).
        if (holders.every((h) => h.isPacked)) {
          mostPlain = Math.max(mostPlain, holders.filter((h) => (h as unknown as { plain: string | null }).plain !== null).length);
        }
        return t;
      }
    }
    const files = texts.map((text, k) => {
      const holder = new Watched(text);
      holders.push(holder);
      return { file: `part-${k}.yaml`, holder, get text() { return holder.text; } };
    });
    const packed = loadSources(files, { env: {}, cwd: '/' });
    const plain = loadSources(texts.map((text, k) => ({ file: `part-${k}.yaml`, text })), { env: {}, cwd: '/' });
    expect(mostPlain).toBe(1);
    expect(holders.every((h) => h.isPacked)).toBe(true);
    expect(packed.diagnostics.length).toBeGreaterThan(0);
    expect(packed.diagnostics).toEqual(plain.diagnostics);
  });

  it('a small config is left as it is', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'menuctl-packed-'));
    const file = path.join(dir, 'small.yaml');
    writeFileSync(file, bigConfig(10));
    utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const { read } = await loadEnvironments([file], { cwd: dir, env: {} });
    const texts = read.texts!;
    await loadConfig([file], { cwd: dir, env: {}, read });
    expect((await readSources([file], dir, texts)).files[0]!.holder?.isPacked).toBe(false);
  });
});
