import { describe, expect, it } from 'vitest';
import { warning } from '../../src/model/diagnostic.js';
import { renderDriftJson } from '../../src/report/drift-json.js';
import { renderDriftJunit } from '../../src/report/drift-junit.js';
import { DRIFT_MARKER, renderDriftMarkdown } from '../../src/report/drift-markdown.js';
import { renderDriftText } from '../../src/report/drift-text.js';
import type { Drift } from '../../src/plan/drift-types.js';
import { checkXml, type XmlElement } from './xml-check.js';
import { inSyncDrift, sampleDrift } from './sample-drift.js';

function all(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => all(c, name))];
}

describe('drift text and markdown', () => {
  it('has no ANSI codes without colour and some with it', () => {
    expect(renderDriftText(sampleDrift(), { color: false })).not.toContain('\x1b[');
    expect(renderDriftText(sampleDrift(), { color: true })).toContain('\x1b[33m~\x1b[39m action["Check balance"]');
  });

  it('ends with the per-class counts', () => {
    expect(renderDriftText(sampleDrift(), { color: false }).trimEnd().split('\n').at(-1))
      .toBe('Drift: 2 changed, 1 archived, 1 missing, 1 unmanaged.');
  });

  it('advice before the summary: apply for what it can fix; for unmanaged-only drift, `ignore:` and not apply, which changes nothing', () => {
    const onlyUnmanaged: Drift = { ...sampleDrift(), drift: sampleDrift().drift.filter((d) => d.class === 'unmanaged') };
    for (const text of [renderDriftText(onlyUnmanaged, { color: false }), renderDriftMarkdown(onlyUnmanaged)]) {
      expect(text).toContain('Only live resources the configuration does not have: list them under `ignore:` in the configuration to leave them alone');
      expect(text).not.toContain('Run `menuctl apply`');
    }
    const mixed = renderDriftText(sampleDrift(), { color: false }).trimEnd().split('\n');
    expect(mixed.at(-2)).toMatch(/^Run `menuctl apply` to make the live API match the configuration.*For the unmanaged ones, list them under `ignore:`/);
    const changedOnly: Drift = { ...sampleDrift(), drift: sampleDrift().drift.filter((d) => d.class === 'changed') };
    expect(renderDriftText(changedOnly, { color: false })).not.toContain('ignore:');
    expect(renderDriftText(inSyncDrift(), { color: false })).not.toMatch(/menuctl apply|ignore:/);
    expect(renderDriftMarkdown(inSyncDrift())).not.toMatch(/menuctl apply|ignore:/);
  });

  it('markdown starts with its marker and counts every class', () => {
    const md = renderDriftMarkdown(sampleDrift());
    expect(md.split('\n')[0]).toBe(DRIFT_MARKER);
    expect(md).toContain('| missing | in the configuration, absent live | 1 |');
    expect(renderDriftMarkdown(inSyncDrift())).toContain('**No drift: the live API matches the configuration.**');
  });

  it('markdown truncates whole items and says so', () => {
    const md = renderDriftMarkdown(sampleDrift(), { maxChars: 1200 });
    expect(md.length).toBeLessThanOrEqual(1200);
    expect(md).toMatch(/> \d+ drifted resources? left out to stay under 1200 characters\. See the CI log/);
  });
});

describe('renderDriftJson', () => {
  it('follows the contract shape', () => {
    const parsed = JSON.parse(renderDriftJson(sampleDrift()));
    expect(Object.keys(parsed)).toEqual(['format_version', 'in_sync', 'drift', 'warnings', 'diagnostics']);
    expect(parsed.warnings).toEqual(['The server has no GET /api/apps: only pinned apps were compared.']);
    expect(parsed.diagnostics).toEqual([
      { severity: 'warning', code: 'live.apps-not-listed', message: 'The server has no GET /api/apps: only pinned apps were compared.' },
    ]);
    expect(Object.keys(JSON.parse(renderDriftJson(inSyncDrift())))).toEqual(['format_version', 'in_sync', 'drift', 'warnings']);
    expect(parsed.in_sync).toBe(false);
    expect(parsed.drift[0]).toEqual({
      class: 'changed', type: 'action', address: 'action["Check balance"]', id: '1a2b3c4d',
      fields: [
        { path: 'root_code', expected: '*144#', live: '*145#' },
        { path: 'steps', expected: ['1', 'phone', 'pin', '-'], live: ['1', 'pin', '-'] },
      ],
    });
    expect(parsed.drift[3]).toMatchObject({ class: 'missing', id: null, fields: [] });
  });
});

describe('renderDriftJunit', () => {
  it('is well-formed XML with one failing testcase per drifted resource', () => {
    const root = checkXml(renderDriftJunit(sampleDrift()));
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({ tests: '5', failures: '5' });
    const cases = all(root, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(sampleDrift().drift.map((d) => d.address));
    expect(cases.map((c) => all(c, 'failure')[0]!.attrs.type)).toEqual(['changed', 'changed', 'archived', 'missing', 'unmanaged']);
    expect(cases[0]!.attrs.classname).toBe('menuctl.drift.action');
    expect(all(cases[0]!, 'failure')[0]!.text).toContain('root_code: expected "*144#", live "*145#"');
  });

  it('lists checked resources without drift as passing testcases', () => {
    const root = checkXml(renderDriftJunit(sampleDrift(), {
      checked: [{ type: 'action', address: 'action["Check balance"]' }, { type: 'app', address: 'app["com.example.ok"]' }],
    }));
    expect(root.attrs).toMatchObject({ tests: '6', failures: '5' });
    const ok = all(root, 'testcase').find((c) => c.attrs.name === 'app["com.example.ok"]')!;
    expect(all(ok, 'failure')).toEqual([]);
  });

  it('reports a passing run when in sync', () => {
    const root = checkXml(renderDriftJunit(inSyncDrift()));
    expect(root.attrs).toMatchObject({ tests: '1', failures: '0' });
  });

  it('escapes markup, quotes and control characters in names and values', () => {
    const nasty = 'a<b>&"c\'\u0001]]>';
    const drift: Drift = {
      format_version: 1, in_sync: false, warnings: [warning('drift.hidden-steps', 'warn <x> & y')],
      drift: [{ class: 'changed', type: 'parser', address: `action["${nasty}"].parser["p"]`, id: '1', fields: [{ path: 'regex', expected: nasty, live: 'x' }] }],
    };
    const xml = renderDriftJunit(drift);
    const root = checkXml(xml);
    const tc = all(root, 'testcase')[0]!;
    expect(tc.attrs.name).toBe('action["a<b>&"c\'\\u0001]]>"].parser["p"]');
    expect(all(tc, 'failure')[0]!.text).toContain('expected "a<b>&"c\'\\u0001]]>"');
    expect(all(root, 'system-out')[0]!.text).toBe('warn <x> & y');
    expect(xml).not.toContain('\u0001');
  });
});

describe('the XML checker used above', () => {
  it.each([
    ['<a><b></a></b>', /does not close/],
    ['<a>x & y</a>', /unterminated entity|unknown entity/],
    ['<a t="1 < 2"/>', /raw </],
    ['<a t=1/>', /unquoted/],
    ['<a>', /unclosed/],
    ['<a/><b/>', /second root/],
  ])('rejects %j', (xml, error) => expect(() => checkXml(xml)).toThrow(error));
});
