import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { exportConfig } from '../../src/export/export-config.js';
import { emptyScope } from '../../src/record/record.js';
import { sampleLive, TRICKY_REGEXES } from './sample-live.js';

const SCHEMA = '../schemas/menuctl.schema.json';

interface Doc {
  version: number;
  organization_id?: number;
  actions?: Record<string, unknown>[];
  apps?: Record<string, unknown>[];
}

function parseStrict(content: string): Doc {
  const docs = parseAllDocuments(content);
  expect(docs).toHaveLength(1);
  expect(docs[0]!.errors).toEqual([]);
  return parse(content) as Doc;
}

function single() {
  const result = exportConfig(sampleLive(), { layout: 'file', schemaPath: SCHEMA });
  expect(result.files.map((f) => f.path)).toEqual(['menuctl.yaml']);
  return { result, content: result.files[0]!.content, doc: parseStrict(result.files[0]!.content) };
}

function actionNamed(doc: Doc, name: string): Record<string, any> {
  const found = doc.actions!.filter((a) => a.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}

describe('exportConfig, layout file', () => {
  it('starts with the schema modeline and declares version 1 and the organization', () => {
    const { content, doc } = single();
    expect(content.split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA}`);
    expect(doc.version).toBe(1);
    expect(doc.organization_id).toBe(62);
  });

  it('exports only active resources and lists the archived ones in a comment', () => {
    const { content, doc } = single();
    const names = doc.actions!.map((a) => a.name);
    expect(names).not.toContain('Retired');
    expect(doc.apps!.map((a) => a.package_name)).toEqual(['com.example.agent', 'com.example.nohook']);
    const check = actionNamed(doc, 'Check balance');
    expect(check.parsers.map((p: { category: string }) => p.category)).not.toContain('old');
    expect(content).toMatch(/^#\s+action\["Retired"\] \(id a4\): archived$/m);
    expect(content).toMatch(/^#\s+action\["Check balance"\]\.parser\["old"\] \(id p21\): archived$/m);
    expect(content).toMatch(/^#\s+app\["com\.example\.old"\] \(id 3\): archived$/m);
  });

  it('keeps the first of two active actions with one name, and warns about the other', () => {
    const { result, doc } = single();
    expect(doc.actions!.filter((a) => a.name === 'Check balance')).toHaveLength(1);
    expect(result.warnings.join('\n')).toContain('action["Check balance"] (id a6): same name as id a1');
  });

  it('warns about a live regex Java rejects (the API stores it unchecked) and exports it as it is', () => {
    const live = sampleLive();
    const target = live.parsers.find((p) => p.archived_at === null && p.action_id === 'a1')!;
    target.regex = 'Balance {balance}';
    const result = exportConfig(live, { layout: 'file', schemaPath: SCHEMA });
    const warning = result.warnings.find((w) => w.includes(`(id ${target.id})`));
    expect(warning).toMatch(/its regex does not compile in Java \(Illegal repetition.*\), so no device can use it; exported as it is/);
    expect(result.files[0]!.content).toContain("regex: 'Balance {balance}'");
    // Only for regexes Java rejects: the sample's tricky ones that compile get none.
    const compileWarnings = exportConfig(sampleLive(), { layout: 'file', schemaPath: SCHEMA }).warnings.filter((w) => w.includes('does not compile'));
    expect(compileWarnings.join('\n')).not.toMatch(/parser\["tricky-[0146]"\]/);
    expect(compileWarnings.join('\n')).toMatch(/parser\["tricky-2"\] .*Dangling meta character/);
  });

  it('round-trips every regex byte for byte, written single-quoted', () => {
    const { content, doc } = single();
    const check = actionNamed(doc, 'Check balance');
    const byCategory = new Map(check.parsers.map((p: { category: string; regex: string }) => [p.category, p.regex]));
    TRICKY_REGEXES.forEach((re, i) => expect(byCategory.get(`tricky-${i}`)).toBe(re));
    expect(content).toContain(String.raw`regex: 'Your balance is (?<balance>[\d,.]+)\s*KES\.'`);
    expect(content).toContain(String.raw`regex: 'It''s "done": ref #(?<ref>\w+) \\ end'`);
  });

  it('keeps names with trailing spaces, unicode, and YAML 1.1 booleans as strings', () => {
    const { content, doc } = single();
    actionNamed(doc, 'Trailing space  ');
    actionNamed(doc, 'Угода: купити ✓');
    actionNamed(doc, 'yes');
    expect(content).toContain('name: "yes"');
    const trailing = actionNamed(doc, 'Trailing space  ');
    expect(trailing.parsers[0]).toEqual({ category: 'ok ', status: 'pending', regex: '^OK$', user_message: 'null' });
  });

  it('writes the fields of actions, parsers and apps equal to the live values, defaults omitted', () => {
    const { doc } = single();
    const check = actionNamed(doc, 'Check balance');
    expect(check.root_code).toBe('*144#');
    expect(check.transport_type).toBe('ussd');
    expect(actionNamed(doc, 'Trailing space  ').transport_type).toBe('stk');
    const tricky = check.parsers.find((p: { category: string }) => p.category === 'tricky-0');
    expect(Object.keys(tricky)).toEqual(['category', 'status', 'regex']);
    const sms = check.parsers.find((p: { category: string }) => p.category === 'wrong-pin');
    expect(sms).toEqual({ category: 'wrong-pin', status: 'failed', target_type: 'sms', sender: 'MPESA', regex: '.*wrong PIN.*', user_message: 'Wrong PIN: {x}' });
    expect(doc.apps).toEqual([
      { name: 'Field agent', package_name: 'com.example.agent', webhook_url: 'https://hooks.example.com/agent?x=1#frag' },
      { name: 'No hook', package_name: 'com.example.nohook' },
    ]);
  });

  it('never writes app secrets', () => {
    const live = sampleLive();
    // Secrets are stripped at the API boundary; even if one slipped into a live object, export must not copy it.
    Object.assign(live.apps[0]!, { token: 'tok-SECRET', webhook_secret: 'whs-SECRET' });
    const content = exportConfig(live, { layout: 'file', schemaPath: SCHEMA }).files[0]!.content;
    expect(content).not.toContain('SECRET');
    expect(content).not.toMatch(/token|webhook_secret/);
  });

  it('infers step kinds from values, with a select caveat on variables', () => {
    const { content, doc } = single();
    expect(actionNamed(doc, 'Check balance').steps).toEqual([
      { press: 1 }, { variable: 'phone' }, 'pin', 'ok', { press: '*' }, { press: '01' }, { press: '#' },
    ]);
    expect(content).toMatch(/- variable: phone # may be a `select` step: the API does not say$/m);
    expect(actionNamed(doc, 'Trailing space  ').steps).toEqual([]);
  });

  it('maps operator names to ids, commenting the name, and flags ambiguous names', () => {
    const { content, doc } = single();
    expect(actionNamed(doc, 'Check balance').operators).toEqual([2172, 2173]);
    expect(content).toMatch(/- 2172 # "Safaricom Ltd\." \(ke\)$/m);
    // MTN is five operators; the two entries of one action get distinct candidates.
    const ids = actionNamed(doc, 'Угода: купити ✓').operators as number[];
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect(content).toMatch(/- 1803 # "MTN" \(cm\)\? or 2001 \(gh\), .*: the API gives only the name; plans compare names, so any of them shows no change/m);
    expect(actionNamed(doc, 'yes').operators).toEqual(['Unlisted Telecom']);
  });
});

describe('exportConfig, layout dir', () => {
  const result = exportConfig(sampleLive(), { layout: 'dir', schemaPath: SCHEMA });

  it('writes apps.yaml plus one safely named file per active action', () => {
    expect(result.files.map((f) => f.path)).toEqual([
      'apps.yaml', 'check-balance.yaml', 'trailing-space.yaml', 'action-a3.yaml', 'yes.yaml', 'check-balance-2.yaml',
    ]);
  });

  it('gives every file the modeline, version and organization, and one action each', () => {
    for (const f of result.files) {
      expect(f.content.split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA}`);
      const doc = parseStrict(f.content);
      expect(doc.version).toBe(1);
      expect(doc.organization_id).toBe(62);
      if (f.path !== 'apps.yaml') expect(doc.actions).toHaveLength(1);
    }
  });

  it('holds the same resources as the single-file layout', () => {
    const one = parseStrict(exportConfig(sampleLive(), { layout: 'file', schemaPath: SCHEMA }).files[0]!.content);
    const docs = result.files.map((f) => parseStrict(f.content));
    expect(docs.flatMap((d) => d.actions ?? [])).toEqual(one.actions);
    expect(docs.flatMap((d) => d.apps ?? [])).toEqual(one.apps);
  });
});

describe('exportConfig with the applied-state record (given beside the live state)', () => {
  it('takes the step details the API does not echo from the record, and its apps warning names the record', () => {
    const live = sampleLive();
    live.apps_listed = false;
    const scope = emptyScope();
    scope.actions.set('action["Check balance"]', {
      id: 'a1', operator_ids: [],
      steps: [{ kind: 'press', value: '1', expect: 'Main menu', description: 'open the menu' }],
    });
    const recorded = { file: 'menuctl.lock', scope };
    const withRecord = exportConfig(live, { layout: 'file', schemaPath: SCHEMA, recorded });
    const steps = actionNamed(parseStrict(withRecord.files[0]!.content), 'Check balance').steps;
    expect(steps[0]).toEqual({ press: 1, expect: 'Main menu', description: 'open the menu' });
    expect(withRecord.files[0]!.content).toContain('Step kinds and details come from menuctl.lock where it holds them');
    expect(withRecord.warnings.join('\n')).toContain('only the apps menuctl.lock records are exported');
    // The same live state without it: inferred from values, and nothing read from LiveState.
    const without = exportConfig(live, { layout: 'file', schemaPath: SCHEMA });
    expect(actionNamed(parseStrict(without.files[0]!.content), 'Check balance').steps[0]).toEqual({ press: 1 });
    expect(without.warnings.join('\n')).toContain('only the apps read by pinned id are exported');
  });
});
