// The config schema knows every limit the reference server enforces, so `validate` refuses what
// apply would have sent to a 422 or 413 halfway through a run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';
import { SCHEMA_PATH } from '../../src/config/schema.js';
import { actionBody, appBody, parserBody } from '../../src/model/payload.js';
import type { Step } from '../../src/model/types.js';
import { MAX_BODY } from '../../src/server/http-io.js';
import { BOUNDS } from '../../src/server/validate-action.js';
import { APP_BOUNDS } from '../../src/server/validate-app.js';
import { PARSER_BOUNDS } from '../../src/server/validate-parser.js';

const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;

function at(pointer: string): Record<string, unknown> {
  let cur: unknown = schema;
  for (const seg of pointer.split('/').slice(1)) cur = (cur as Record<string, unknown>)[seg];
  if (!cur || typeof cur !== 'object') throw new Error(`no schema node at ${pointer}`);
  return cur as Record<string, unknown>;
}

const A = '/$defs/action/properties';
const P = '/$defs/parser/properties';
/** Server bound -> where the config holds that value (several places when several fields feed it). */
const COUNTERPARTS: Record<string, Record<string, string[]>> = {
  action: {
    name: [`${A}/name`, `${A}/renamed_from`],
    root_code: [`${A}/root_code`],
    steps: [`${A}/steps`],
    operators: [`${A}/operators`],
    step_value: ['/$defs/pressStep/properties/press', '/$defs/variableStep/properties/variable', '/$defs/selectStep/properties/select'],
    step_text: ['/$defs/pressStep/properties/expect', '/$defs/description'],
  },
  parser: {
    category: [`${P}/category`, `${P}/renamed_from`],
    regex: [`${P}/regex`],
    user_message: [`${P}/user_message`],
    sender: [`${P}/sender`],
  },
  app: {
    name: ['/$defs/app/properties/name'],
    package_name: ['/$defs/app/properties/package_name'],
    webhook_url: ['/$defs/app/properties/webhook_url'],
  },
};
/** Server bounds with no config field: menuctl fills them itself. */
const NOT_IN_CONFIG: Record<string, string[]> = { parser: ['action_id'] };

const SERVER: Record<string, Record<string, number>> = { action: BOUNDS, parser: PARSER_BOUNDS, app: APP_BOUNDS };

describe('every server limit has its schema counterpart', () => {
  const rows = Object.entries(SERVER).flatMap(([kind, bounds]) => Object.entries(bounds).map(([field, limit]) => ({ kind, field, limit })));

  it.each(rows)('$kind $field <= $limit', ({ kind, field, limit }) => {
    if (NOT_IN_CONFIG[kind]?.includes(field)) return;
    const places = COUNTERPARTS[kind]?.[field];
    expect(places, `server bound ${kind}.${field} has no counterpart in the config schema`).toBeDefined();
    for (const place of places!) {
      const node = at(place);
      const max = node.type === 'array' ? node.maxItems : node.maxLength;
      expect(max, place).toBe(limit);
    }
  });

  it('the largest action, parser and app a valid config can describe fit in one request body', () => {
    // A control character is written \u0001 in JSON: 6 bytes, the most one code point can cost.
    const worst = (n: number) => '\u0001'.repeat(n);
    const steps: Step[] = Array.from({ length: BOUNDS.steps }, () =>
      ({ kind: 'press', value: '1'.repeat(BOUNDS.step_value), expect: worst(BOUNDS.step_text), description: worst(BOUNDS.step_text) }));
    const action = actionBody({ name: worst(BOUNDS.name), root_code: worst(BOUNDS.root_code), transport_type: 'ussd',
      operator_ids: Array.from({ length: BOUNDS.operators }, (_, i) => 100_000_000 + i), steps });
    const parser = parserBody('x'.repeat(PARSER_BOUNDS.action_id), { category: worst(PARSER_BOUNDS.category), status: 'succeeded',
      target_type: 'sms', sender: worst(PARSER_BOUNDS.sender), regex: worst(PARSER_BOUNDS.regex), user_message: worst(PARSER_BOUNDS.user_message) });
    const app = appBody({ name: worst(APP_BOUNDS.name), package_name: 'a'.repeat(APP_BOUNDS.package_name), webhook_url: `https://${worst(APP_BOUNDS.webhook_url - 8)}` });
    for (const body of [action, parser, app]) expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(MAX_BODY);
  });
});

describe('validate refuses values over the limits, located, saying the limit', () => {
  const load = (text: string) => loadSources([{ file: 'm.yaml', text }], { env: {}, cwd: '/' });
  const config = (name: string, regex: string, category = 'c') => `version: 1
actions:
  - name: "${name}"
    root_code: "*1#"
    transport_type: ussd
    operators: [2172]
    parsers:
      - category: ${category}
        status: succeeded
        regex: '${regex}'
`;

  it('a 300-character name and category', () => {
    const r = load(config('n'.repeat(300), '.*', 'c'.repeat(300)));
    expect(r.diagnostics.map((d) => [d.code, d.loc?.line, d.loc?.col])).toEqual([['schema.too-long', 3, 11], ['schema.too-long', 8, 19]]);
    expect(r.diagnostics[0]!.message).toBe('`name` has 300 characters; the API accepts at most 255 (apply would fail on it). Shorten it.');
  });

  it('a 5,000-character regex', () => {
    const r = load(config('A', 'x'.repeat(5000)));
    expect(r.diagnostics.map((d) => [d.code, d.loc?.line, d.loc?.col])).toEqual([['schema.too-long', 10, 16]]);
    expect(r.diagnostics[0]!.message).toContain('`regex` has 5,000 characters; the API accepts at most 4096');
  });

  it('a 15-million-character name, without echoing it back', () => {
    const r = load(config('n'.repeat(15_000_000), '.*'));
    expect(r.diagnostics.map((d) => [d.code, d.loc?.line, d.loc?.col])).toEqual([['schema.too-long', 3, 11]]);
    expect(r.diagnostics[0]!.message).toContain('15,000,000 characters');
    expect(JSON.stringify(r.diagnostics).length).toBeLessThan(2000);
  });

  it('counts characters, not UTF-16 units, as the server does', () => {
    expect(load(config('😀'.repeat(255), '.*')).diagnostics).toEqual([]);
    expect(load(config('😀'.repeat(256), '.*')).diagnostics.map((d) => d.code)).toEqual(['schema.too-long']);
  });
});
