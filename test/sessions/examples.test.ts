// The shipped examples: their sessions pass and cover every parser, and the failure mode shown in
// a comment is what menuctl really says when the session is uncommented.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-examples-');
afterAll(() => tmp.remove());

describe('examples/', () => {
  it('pass menuctl test with sessions, every parser exercised', async () => {
    const r = await runCli(['test', 'examples', '--require-fixtures', '--format', 'json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.results.filter((x: { kind: string }) => x.kind === 'session').length).toBeGreaterThanOrEqual(5);
    expect(body.coverage.uncovered).toEqual([]);
  });

  it('the commented failure mode in uganda-momo.yaml fails as its comment says', async () => {
    const text = readFileSync('examples/uganda-momo.yaml', 'utf8');
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.includes('# - name: after MTN renumbered the menu'));
    expect(start).toBeGreaterThan(0);
    let end = start;
    while (lines[end + 1]?.startsWith('      #   ')) end++;
    const uncommented = lines.map((l, i) => (i >= start && i <= end ? l.replace('      # ', '      ') : l)).join('\n');
    const r = await runCli(['test', tmp.write('momo.yaml', uncommented)]);
    expect(r.code).toBe(1);
    const said = lines.slice(0, start).filter((l) => l.startsWith('      #   ')).map((l) => l.slice('      #   '.length).trim()).join(' ');
    expect(said.startsWith('failed: step 1:')).toBe(true);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(said);
  });
});
