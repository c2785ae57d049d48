// Sessions classify with the fixtures' engine (classifyInSandbox + judge): same device semantics,
// same refusal to guess. Checked by giving a fixture and a session the same message.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-shared-');
afterAll(() => tmp.remove());

const config = (parsers: string, reply: string) => `version: 1
actions:
  - name: Check
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps:
      - ok
    parsers:
${parsers}
    tests:
      - message: ${reply}
        expect: { category: bal }
    sessions:
      - name: same reply
        screens: ["Welcome", ${reply}]
        expect: { category: bal }
`;

interface Result { kind: string; status: string; actual: unknown; reasons: string[] }

async function both(parsers: string, reply: string): Promise<{ fixture: Result; session: Result }> {
  const r = await runCli(['test', tmp.write(`c${Math.random().toString(36).slice(2)}.yaml`, config(parsers, reply)), '--format', 'json']);
  const results: Result[] = JSON.parse(r.stdout).results;
  return { fixture: results.find((x) => x.kind === 'fixture')!, session: results.find((x) => x.kind === 'session')! };
}

describe('one engine for fixtures and sessions', () => {
  it('gives the same outcome under Java semantics (case-insensitive, whole message, first parser wins)', async () => {
    const parsers = `      - category: bal
        status: succeeded
        regex: 'BALANCE (?<amount>\\d+)'
      - category: other
        status: failed
        regex: '.*'`;
    const { fixture, session } = await both(parsers, '"balance 12"');
    expect(fixture.status).toBe('passed');
    expect(session.actual).toEqual(fixture.actual);
    expect(session.actual).toEqual({ category: 'bal', status: 'succeeded', variables: { amount: '12' } });
  });

  it('refuses to guess the same way when a parser cannot be evaluated faithfully', async () => {
    const parsers = `      - category: letters
        status: failed
        regex: '\\X+'
      - category: bal
        status: succeeded
        regex: '.*'`;
    const { fixture, session } = await both(parsers, '"abc"');
    expect(fixture.status).toBe('error');
    expect(session.status).toBe('error');
    expect(session.reasons).toEqual(fixture.reasons);
  });
});
