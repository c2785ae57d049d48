// First-day YAML mistakes: each one's message names the cause and the fix, at the place to fix.
// (The broken corpus runs the main cases through the CLI; these pin the edges.)
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';

const load = (text: string) => loadSources([{ file: 'm.yaml', text }], { env: {}, cwd: '/' });
const first = (text: string) => {
  const d = load(text).diagnostics[0]!;
  return { code: d.code, at: `${d.loc?.line}:${d.loc?.col}`, message: d.message };
};

const ACTION = (rootCode: string, extra = '') =>
  `version: 1\nactions:\n  - name: A\n    root_code: ${rootCode}\n    transport_type: ussd\n    operators: [2172]\n${extra}`;

describe('unclosed quotes are located where they open', () => {
  it.each([
    ['a double quote whose last character is an escaped quote', ACTION('"*131#\\"'), '4:16', 'double quote is never closed'],
    ['a single quote ending in a doubled quote', ACTION("'*131#''"), '4:16', 'single quote is never closed'],
    ['a quote in a flow sequence', ACTION('"*1#"', '    steps: [pin, "ok]\n'), '7:18', 'double quote is never closed'],
  ])('%s', (_, text, at, message) => {
    expect(first(text)).toMatchObject({ code: 'yaml.syntax', at });
    expect(first(text).message).toContain(message);
  });

  it('a closed quote followed by an error elsewhere keeps the parser\'s own message', () => {
    expect(first(ACTION('"*131#"', '    steps: [pin\n')).message).not.toContain('quote');
  });
});

describe('USSD codes written without quotes', () => {
  it('an alias that looks like a USSD code, under any key, says to quote it', () => {
    expect(first(ACTION('"*1#"', '    steps:\n      - press: *2*1#\n'))).toMatchObject({
      code: 'yaml.unknown-alias', at: '8:16', message: expect.stringContaining('Write `press: "*2*1#"`'),
    });
  });

  it('an alias that does not look like a code keeps the anchor advice', () => {
    expect(first(ACTION('"*1#"', '    steps: *ops\n')).message).toContain('Define &ops first');
  });

  it('a value lost to a comment is named, with the code that was ignored', () => {
    expect(first(ACTION('#150#')).message).toBe('`root_code` is empty because # starts a comment in YAML, so `#150#` was ignored. Quote it: `root_code: "#150#"`.');
  });

  it('a value that is null for another reason keeps the type message', () => {
    expect(first(ACTION('~')).message).toBe('`root_code` must be a string, not null.');
  });
});

describe('a key and its value need ": "', () => {
  it.each([
    ['- variable amount', 'Write `variable: amount`'],
    ['- select:bundle', 'Write `select: bundle`'],
  ])('%s', (step, fix) => {
    expect(first(ACTION('"*1#"', `    steps:\n      ${step}\n`)).message).toContain(fix);
  });

  it('a URL after a colon is not taken for a missing space', () => {
    expect(load('version: 1\napps:\n  - name: A\n    package_name: com.example.a\n    webhook_url: http://h.example.com/x\n').diagnostics).toEqual([]);
  });
});
