// Replay's reports print strings that came from files: a record's messages, status, category and
// sender, its path, the config's action names (issue 36 item 7). None of them may reach a terminal,
// a CI log or a pull-request comment as ESC/OSC, C1 CSI, a bidi override or a lone CR: text and
// markdown go through the one inert rule (src/text/inert.ts), JSON keeps its values exact.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { renderReplayJson, renderReplayMarkdown, renderReplayText } from '../../src/report/replay.js';
import type { ReplayReport } from '../../src/replay/tally.js';
import { runCli } from '../helpers/run-cli.js';

/** What a terminal acts on, or what breaks a line, but the output's own line breaks. */
const ACTIVE = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Strings rich in the characters that matter, mixed with ordinary, markdown and astral text. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\x1b', '\x1b]0;t\x07', '\x9b', '\x9d', '\x85', '\x07', '\b', '\r', '\n', '\r\n', '\u2028', '\u2029', '\u202a', '\u202e',
      '\u2066', '\u2069', '\u200e', '\u200b', '\ufeff', '\ud800', '\udfff', '\u{E0001}', '\\', '"', '`', '|', '<', '>', '&', '@', '[', ']', '(', ')', '*', '_', '#', ':'),
    fc.string({ unit: 'grapheme', maxLength: 1 }),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 24,
});

/** A report whose every string is `s(...)`: the same structure whatever the strings. */
function reportOf(strings: string[]): ReplayReport {
  let i = 0;
  const s = () => strings[i++ % strings.length]!;
  return {
    format_version: 1,
    compared_with: 'records',
    summary: { transactions: 3, unmatched_action: 1, same: 0, changed: 2, errors: 0 },
    matrix: [{ from: s(), to: s(), count: 2 }],
    changes: [
      { record: s(), action: s(), from: s(), to: s(), message: s() },
      { record: s(), action: s(), from: s(), to: s(), message: null },
    ],
    unclassified: [
      { template: s(), count: 2, action: s(), channel: 'sms', sender: s() },
      { template: s(), count: 1, action: s(), channel: 'ussd', sender: null },
    ],
    unclassified_omitted: 0,
    unmatched: [{ action: s(), count: 1 }],
  };
}

const plain = reportOf(['x']);
const strings = fc.array(hostile, { minLength: 1, maxLength: 20 });

describe('replay reports from arbitrary strings', () => {
  it('text: nothing a terminal acts on, and the same lines as with plain strings', () => {
    const lines = renderReplayText(plain).split('\n').length;
    fc.assert(fc.property(strings, (ss) => {
      const out = renderReplayText(reportOf(ss));
      return !ACTIVE.test(out) && out.split('\n').length === lines;
    }), { numRuns: 1000 });
  });

  it('markdown: nothing a terminal acts on, and every string stays inside its <code> span', () => {
    const skeleton = (md: string) => md.replace(/<code>[^<]*<\/code>/g, '<code></code>');
    const expected = skeleton(renderReplayMarkdown(plain));
    fc.assert(fc.property(strings, (ss) => {
      const out = renderReplayMarkdown(reportOf(ss));
      // In a span: no tag, no backtick, pipe, mention, link or emphasis left as itself.
      const spans = [...out.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]!.replace(/&#\d+;|&(?:lt|gt|amp);/g, ''));
      return !ACTIVE.test(out) && skeleton(out) === expected && spans.every((t) => !/[`|@*_[\]()#:]/.test(t));
    }), { numRuns: 1000 });
  });

  it('json: nothing a terminal acts on, and the values exact', () => {
    fc.assert(fc.property(strings, (ss) => {
      const r = reportOf(ss);
      const out = renderReplayJson(r);
      expect(JSON.parse(out)).toEqual(r);
      return !ACTIVE.test(out);
    }), { numRuns: 1000 });
  });
});

describe('menuctl replay on a hostile record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'menuctl-replay-inert-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'menuctl.yaml');
  writeFileSync(config, `version: 1
actions:
  - { name: Balance, root_code: "*144#", transport_type: ussd, operators: [2172], steps: [{ press: 1 }],
      parsers: [ { category: balance, status: succeeded, regex: 'Your balance is .*' } ] }
`);
  const EVIL = '\x1b]0;owned\x07\x1b[2J\x9b31m\u202egnp.exe\u2066x\u2069ok\rFAKE\u2028';
  const records = join(dir, `rec\x1b[31m\u202e`);
  mkdirSync(records);
  writeFileSync(join(records, `a\x9b2J.jsonl`), [
    { action_name: 'Balance', status: `succ${EVIL}`, category: `cat${EVIL}`, session_messages: [`Menu${EVIL}`, `Hello ${EVIL}`],
      sms_hits: [{ sender: `MP${EVIL}`, message: `SMS ${EVIL}` }] },
    { action_name: `Unknown ${EVIL}`, session_messages: ['x'] },
  ].map((a) => JSON.stringify({ data: { attributes: a } })).join('\n'));

  it.each(['text', 'markdown', 'json'])('%s: nothing from the record, its path or its name acts on a terminal', async (format) => {
    const r = await runCli(['replay', config, '--records', records, '--format', format], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('FAKE');
    expect(r.stdout).not.toMatch(ACTIVE);
    if (format === 'json') expect(JSON.parse(r.stdout).changes[0].from).toBe(`succ${EVIL}/cat${EVIL}`);
  });
});
