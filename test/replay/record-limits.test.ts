// One huge or deeply nested record (issue 36 item 8): a 400 MB line crashed V8, 100 MB took 39 s
// and 2 GB, and a record nested 100,000 deep overflowed the stack with no line number. Now a record
// past --max-record-size (1 MiB) or nested past 64 levels is an error naming its file:line, found
// without reading past the limit or recursing.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { boundedLines, RecordTooLarge, tooDeepAt } from '../../src/replay/bounded-read.js';
import { runCli } from '../helpers/run-cli.js';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** `bytes` cut at the given offsets, as a stream hands them over (mid-character too). */
function chunked(bytes: Buffer, cuts: number[]): AsyncIterable<Buffer> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const c of [...at, bytes.length]) {
    if (c > start) pieces.push(bytes.subarray(start, c));
    start = Math.max(start, c);
  }
  return (async function* () { yield* pieces; })();
}

describe('boundedLines', () => {
  it('gives the lines of any text cut anywhere, LF or CRLF, as split would', async () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\n', '\r\n', '\r', 'é', '😀', '{'), fc.string({ unit: 'grapheme', maxLength: 1 })), maxLength: 60 });
    await fc.assert(fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 8 }), async (t, cuts) => {
      const lines = await collect(boundedLines(chunked(Buffer.from(t, 'utf8'), cuts), 1_000));
      const expected = t.split('\n').map((l) => l.replace(/\r$/, ''));
      if (t.endsWith('\n') || t === '') expected.pop();
      expect(lines).toEqual(expected);
    }), { numRuns: 1000 });
  });

  it('stops at the line past the limit, naming it, having read no further than the limit and one chunk', async () => {
    let pulled = 0;
    // A line that never ends: a reader that waits for its end never returns.
    const endless = (async function* () {
      yield Buffer.from('{"a":1}\n\n');
      for (;;) {
        pulled += 1;
        yield Buffer.alloc(64 * 1024, 0x61);
      }
    })();
    const seen: string[] = [];
    const err = await (async () => {
      try {
        for await (const l of boundedLines(endless, 1024 * 1024)) seen.push(l);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(RecordTooLarge);
    expect((err as RecordTooLarge).line).toBe(3);
    expect(seen).toEqual(['{"a":1}', '']);
    expect(pulled).toBe(17); // 16 chunks fill the MiB, the 17th passes it
  });

  it('takes a line of exactly the limit', async () => {
    expect(await collect(boundedLines(chunked(Buffer.from('abcd\nefgh'), [2, 7]), 4))).toEqual(['abcd', 'efgh']);
    await expect(collect(boundedLines(chunked(Buffer.from('abcd\nefghi'), [3]), 4))).rejects.toMatchObject({ line: 2 });
  });
});

describe('tooDeepAt', () => {
  /** Depth by recursion: fine on the small values fast-check makes. */
  const depth = (v: unknown): number => (typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);

  it('agrees with the depth of any JSON value, brackets in strings aside', () => {
    const value = fc.jsonValue({ maxDepth: 6 }).chain((v) => fc.constant(v));
    fc.assert(fc.property(value, fc.constantFrom('x', '[[{"', '\\"[{', ']]}}'), fc.integer({ min: 0, max: 7 }), (v, s, max) => {
      const text = JSON.stringify([v, s]);
      return (tooDeepAt(text, max) >= 0) === (depth([v, s]) > max);
    }), { numRuns: 2000 });
  });

  it('points at the first bracket past the limit, without recursing on 1,000,000 levels', () => {
    expect(tooDeepAt('[[[]]]', 3)).toBe(-1);
    expect(tooDeepAt(' {"a":[[1]]}', 2)).toBe(7);
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(tooDeepAt(deep, 64)).toBe(64);
  });
});

describe('menuctl replay with a huge or deep record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'menuctl-replay-limits-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'menuctl.yaml');
  writeFileSync(config, `version: 1
actions:
  - { name: Balance, root_code: "*144#", transport_type: ussd, operators: [2172], steps: [{ press: 1 }],
      parsers: [ { category: balance, status: succeeded, regex: 'Your balance is .*' } ] }
`);
  const good = JSON.stringify({ data: { attributes: { action_name: 'Balance', status: 'succeeded', category: 'balance', session_messages: ['Your balance is 5'] } } });

  it('a 64 MB line: exit 1 naming file:line, nothing compared', async () => {
    const file = join(dir, 'huge.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, `${good}\n{"data":{"attributes":{"action_name":"Balance","session_messages":["`);
    const mib = Buffer.alloc(1024 * 1024, 'Service unavailable '.repeat(52_429));
    for (let i = 0; i < 64; i++) writeSync(fd, mib);
    writeSync(fd, `"]}}}\n${good}\n`);
    closeSync(fd);
    const r = await runCli(['replay', config, '--records', file], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: huge.jsonl:2: a record longer than 1 MiB (--max-record-size); nothing past that was read. ' +
      'A webhook body is a few KB; a .jsonl file holds one per line. Nothing was compared.\n');
  });

  it('a record nested 100,000 deep: exit 1 naming file:line:column', async () => {
    const deep = `{"data":{"attributes":{"session_messages":["x"],"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    const file = join(dir, 'deep.jsonl');
    writeFileSync(file, `${good}\n\n${deep}\n`);
    const r = await runCli(['replay', config, '--records', file], { cwd: dir });
    expect(r.code).toBe(1);
    // Column 118: after the 56 characters of `{"data":...,"extra":` (3 levels), the 62nd bracket opens the 65th.
    expect(r.stderr).toBe('Error: deep.jsonl:3:118: nested deeper than 64 arrays and objects; a webhook body nests about 5. ' +
      'Each record is one webhook body as Hover sent it. Nothing was compared.\n');
  });

  it('a list nested 100,000 deep, which reading the record recursed into: its file:line:column, not a stack overflow', async () => {
    const file = join(dir, 'lists.jsonl');
    writeFileSync(file, `${'['.repeat(100_000)}${good}${']'.repeat(100_000)}\n`);
    const r = await runCli(['replay', config, '--records', file], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: lists\.jsonl:1:65: nested deeper than 64 /);
  });

  it('a deep .json file: its line and column', async () => {
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{\n  "data":\n    ${'{"a":'.repeat(70)}1${'}'.repeat(70)}\n}\n`);
    const r = await runCli(['replay', config, '--records', file], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: deep\.json:3:\d+: nested deeper than 64 /);
  });

  it('--max-record-size: a .jsonl line and a .json file past it; a value it cannot read', async () => {
    const line = join(dir, 'one.jsonl');
    writeFileSync(line, `${good}\n`);
    const small = await runCli(['replay', config, '--records', line, '--max-record-size', '100'], { cwd: dir });
    expect(small.stderr).toContain('one.jsonl:1: a record longer than 100 bytes (--max-record-size)');
    expect((await runCli(['replay', config, '--records', line, '--max-record-size', '1KiB'], { cwd: dir })).code).toBe(0);
    const json = join(dir, 'one.json');
    writeFileSync(json, JSON.stringify(JSON.parse(good), null, 2));
    const file = await runCli(['replay', config, '--records', json, '--max-record-size', '100'], { cwd: dir });
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('one.json: larger than 100 bytes (--max-record-size): a .json file is one record, or a few;');
    for (const bad of ['0', '1GiB', '300MiB', 'lots']) {
      const r = await runCli(['replay', config, '--records', line, '--max-record-size', bad], { cwd: dir });
      expect(r.code, bad).not.toBe(0);
      expect(r.stderr, bad).toContain('expected a size from 1 byte to 256MiB');
    }
  });
});
