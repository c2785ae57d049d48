// menuctl replay on held-out records with known outcomes (issue 27 "Done when"): a base config, a
// head config that fixes two parsers and breaks one, records in temp dirs, the real CLI in-process.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'menuctl-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  mkdirSync(join(f, '..'), { recursive: true });
  writeFileSync(f, text);
  return f;
};

// Flow-style YAML throughout: the loader's other path.
const config = (p: { balance: string; wrongPin: string; insufficient: string }) => `version: 1
actions:
  - { name: Balance, id: pinned-1, root_code: "*334#", transport_type: ussd, operators: [2172], steps: [{ press: 5, expect: My Account }, pin],
      parsers: [
        { category: received, status: pending, regex: 'Your request has been received.*' },
        { category: balance, status: succeeded, target_type: sms, sender: MPESA, regex: '${p.balance}' },
        { category: insufficient, status: failed, target_type: sms, sender: MPESA, regex: '${p.insufficient}' },
        { category: wrong-pin, status: failed, regex: '${p.wrongPin}' } ] }
  - { name: Airtime, root_code: "*544#", transport_type: ussd, operators: [2172], steps: [{ press: 1, expect: Airtime }],
      parsers: [ { category: bought, status: succeeded, regex: 'You have bought .*' } ] }
`;
const BASE = write('base/menuctl.yaml', config({
  balance: '(?<code>[A-Z0-9]{10}) Confirmed\\. Your balance is Ksh(?<balance>[\\d,]+\\.\\d{2}).*',
  wrongPin: '(You have entered an? )?wrong PIN.*',
  insufficient: '[A-Z0-9]{10} Failed\\. Insufficient funds.*',
}));
// Fixes wrong-pin (new wording) and insufficient (new wording); breaks balance (expects "Bal:").
const HEAD = write('head/menuctl.yaml', config({
  balance: '(?<code>[A-Z0-9]{10}) Confirmed\\. Bal: Ksh(?<balance>[\\d,]+\\.\\d{2}).*',
  wrongPin: '(?:(You have entered an? )?wrong PIN|.*the PIN you entered is incorrect).*',
  insufficient: '[A-Z0-9]{10} (?:Failed\\. Insufficient funds|Failed: not enough money).*',
}));

const MENU = ['M-PESA\n1. Send Money\n5. My Account', 'Enter PIN:'];
const RECEIVED = 'Your request has been received.';
const PEOPLE = ['JOHN KAMAU', 'MARY ATIENO', '0712345678', '+254722334455', 'john.kamau@example.org', 'whsec_topsecret', 'device-8a1f'];
let uuid = 0;
function record(o: { name?: string; id?: string; status: string; category: string | null; last: string; hits?: object[]; misses?: object[] }): object {
  uuid += 1;
  return {
    meta: { secret: 'whsec_topsecret' },
    data: { type: 'transaction', attributes: {
      uuid: `u${uuid}`, device_id: 'device-8a1f', action_name: o.name ?? 'Balance', ...(o.id ? { action_id: o.id } : {}),
      status: o.status, category: o.category, msisdn: '+254722334455', session_messages: [...MENU, o.last],
      sms_hits: o.hits ?? [], sms_misses: o.misses ?? [], a_field_hover_added_later: { x: 1 },
    } },
  };
}
const sms = (message: string, timestamp: string) => ({ sender: 'MPESA', message, timestamp });
const balanceSms = (code: string) => sms(`${code} Confirmed. Your balance is Ksh1,200.00 on 2/10/23. Sent to JOHN KAMAU 0712345678.`, '2023-10-02T10:00:05Z');

// Line by line: what base and head give (known outcomes).
const LINES = [
  /* 1 */ record({ status: 'succeeded', category: 'balance', last: RECEIVED, hits: [balanceSms('QAB1CD2EF3')] }), // base balance, head received
  /* 2 */ record({ status: 'succeeded', category: 'balance', last: RECEIVED, hits: [balanceSms('QAB1CD2EF4')] }), // base balance, head received
  /* 3 */ record({ status: 'pending', category: null, last: 'Dear JOHN KAMAU, the PIN you entered is incorrect. Call 0712345678.' }), // none -> wrong-pin
  /* 4 */ record({ status: 'pending', category: null, last: 'Dear MARY ATIENO, the PIN you entered is incorrect. Call 0712345678.' }), // none -> wrong-pin
  /* 5 */ record({ status: 'pending', category: 'received', last: RECEIVED, misses: [sms('QAB1CD2EF5 Failed: not enough money. Contact john.kamau@example.org', '2023-10-02T10:00:09Z')] }), // received -> insufficient
  /* 6 */ record({ status: 'pending', category: null, last: 'Service temporarily unavailable. Try again in 15 minutes. Ref 88213' }), // none, same
  /* 7 */ record({ status: 'pending', category: null, last: 'Service temporarily unavailable. Try again in 5 minutes. Ref 88299' }), // none, same
  /* 8 */ record({ status: 'failed', category: 'wrong-pin', last: 'You have entered a wrong PIN.' }), // same
  /* 9 */ record({ name: 'Unknown action', status: 'pending', category: null, last: 'Hello' }), // unmatched
];
const RECORDS = write('records/traffic.jsonl', LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');

// A pretty-printed .json record in a subdirectory, matched by its public id through the `id:` pin
// (its name is not the action's): base received -> head received is the same.
write('records/more/one.json', JSON.stringify(record({ name: 'Renamed in Hover', id: 'pinned-1', status: 'pending', category: 'received', last: RECEIVED }), null, 2));

// Most frequent first, ties by from then to: the same order on every run.
const EXPECTED_MATRIX = [
  { from: 'none', to: 'failed/wrong-pin', count: 2 },
  { from: 'succeeded/balance', to: 'pending/received', count: 2 },
  { from: 'pending/received', to: 'failed/insufficient', count: 1 },
];

describe('menuctl replay', () => {
  it('with --baseline: the summary, the exact matrix and each change with its record file:line', async () => {
    const r = await runCli(['replay', HEAD, '--records', join(dir, 'records'), '--baseline', BASE, '--format', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.summary).toEqual({ transactions: 10, unmatched_action: 1, same: 4, changed: 5, errors: 0 });
    expect(body.matrix).toEqual(EXPECTED_MATRIX);
    expect(body.changes.map((c: { record: string; from: string; to: string }) => `${c.record} ${c.from} -> ${c.to}`)).toEqual([
      'records/traffic.jsonl:1 succeeded/balance -> pending/received',
      'records/traffic.jsonl:2 succeeded/balance -> pending/received',
      'records/traffic.jsonl:3 none -> failed/wrong-pin',
      'records/traffic.jsonl:4 none -> failed/wrong-pin',
      'records/traffic.jsonl:5 pending/received -> failed/insufficient',
    ]);
    expect(body.changes[0]).toMatchObject({ action: 'action["Balance"]', message: 'Your request has been received.' });
    expect(body.changes[4].message).toBe('QAB1CD2EF5 Failed: not enough money. Contact user@example.com');
    expect(body.unmatched).toEqual([{ action: 'Unknown action', count: 1 }]);
  });

  it('groups the outage message by shape, most frequent first, scrubbed', async () => {
    const r = await runCli(['replay', HEAD, '--records', RECORDS, '--format', 'json'], { cwd: dir });
    const body = JSON.parse(r.stdout);
    // Ties (count 2) by action, channel, sender, shape: the balance SMS the head config no longer
    // reads (sms) before the outage (ussd); the one-off hostile or unknown ones after.
    expect(body.unclassified.slice(0, 2)).toEqual([
      { template: '<code> Confirmed. Your balance is Ksh<amount> on <n>/<n>/<n>. Sent to <name> <n>.', count: 2, action: 'action["Balance"]', channel: 'sms', sender: 'MPESA' },
      { template: 'Service temporarily unavailable. Try again in <n> minutes. Ref <n>', count: 2, action: 'action["Balance"]', channel: 'ussd', sender: null },
    ]);
    expect(body.unclassified.slice(2).every((g: { count: number }) => g.count === 1)).toBe(true);
  });

  it("without --baseline compares with each record's own outcome", async () => {
    const r = await runCli(['replay', HEAD, '--records', RECORDS, '--format', 'json'], { cwd: dir });
    const body = JSON.parse(r.stdout);
    expect(body.compared_with).toBe('records');
    expect(body.matrix).toEqual(EXPECTED_MATRIX);
  });

  it.each([
    ['no --detailed-exitcode', [], 0],
    ['--detailed-exitcode with changes', ['--detailed-exitcode'], 2],
  ])('exit code: %s', async (_name, extra, code) => {
    const r = await runCli(['replay', HEAD, '--records', RECORDS, '--baseline', BASE, ...extra], { cwd: dir });
    expect(r.code).toBe(code);
  });

  it('--detailed-exitcode exits 0 when nothing changed', async () => {
    const r = await runCli(['replay', BASE, '--records', RECORDS, '--baseline', BASE, '--detailed-exitcode'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 changed');
  });

  it.each(['text', 'json', 'markdown'])('no personal data or secret in the %s output', async (format) => {
    const r = await runCli(['replay', HEAD, '--records', join(dir, 'records'), '--baseline', BASE, '--format', format], { cwd: dir });
    expect(r.code).toBe(0);
    for (const p of PEOPLE) {
      expect(r.stdout).not.toContain(p);
      expect(r.stderr).not.toContain(p);
    }
    expect(r.stdout).not.toMatch(/712345678|7223344/);
  });

  it('matches a record to its action by public id through menuctl.lock beside the config', async () => {
    const lock = '# menuctl applied-state record: what the API cannot tell (docs/planning.md). Commit it beside the config.\n' +
      `${JSON.stringify({ scope: 'http://api.example org 1', address: 'action["Airtime"]', id: 'live-airtime', steps: [], operator_ids: [2172] })}\n`;
    write('locked/menuctl.lock', lock);
    const cfg = write('locked/menuctl.yaml', config({ balance: 'x', wrongPin: 'y', insufficient: 'z' }));
    const recs = write('locked.jsonl', `${JSON.stringify(record({ name: 'Airtime (old name)', id: 'live-airtime', status: 'succeeded', category: 'bought', last: 'You have bought Ksh50 of airtime' }))}\n`);
    const r = await runCli(['replay', cfg, '--records', recs, '--format', 'json'], { cwd: dir });
    expect(JSON.parse(r.stdout).summary).toMatchObject({ transactions: 1, unmatched_action: 0, same: 1 });
  });

  it('reads the record from --state (MENUCTL_STATE too) where the team keeps it', async () => {
    const lock = '# menuctl applied-state record: what the API cannot tell (docs/planning.md). Commit it beside the config.\n' +
      `${JSON.stringify({ scope: 'environment production', address: 'action["Airtime"]', id: 'live-airtime-2', steps: [], operator_ids: [2172] })}\n`;
    const state = write('elsewhere/state.lock', lock);
    const cfg = write('unlocked/menuctl.yaml', config({ balance: 'x', wrongPin: 'y', insufficient: 'z' }));
    const recs = write('state.jsonl', `${JSON.stringify(record({ name: 'Renamed since', id: 'live-airtime-2', status: 'succeeded', category: 'bought', last: 'You have bought Ksh50 of airtime' }))}\n`);
    const flag = await runCli(['replay', cfg, '--records', recs, '--format', 'json', '--state', `file:${state}`], { cwd: dir });
    expect(JSON.parse(flag.stdout).summary).toMatchObject({ transactions: 1, unmatched_action: 0, same: 1 });
    const env = await runCli(['replay', cfg, '--records', recs, '--format', 'json'], { cwd: dir, env: { MENUCTL_STATE: `file:${state}` } });
    expect(JSON.parse(env.stdout).summary).toMatchObject({ transactions: 1, unmatched_action: 0, same: 1 });
    const without = await runCli(['replay', cfg, '--records', recs, '--format', 'json'], { cwd: dir });
    expect(JSON.parse(without.stdout).summary).toMatchObject({ transactions: 1, unmatched_action: 1 });
  });

  it.each([
    ['a truncated JSONL line', 'cut.jsonl', `${JSON.stringify(LINES[0])}\n${JSON.stringify(LINES[1]).slice(0, 120)}\n`, /cut\.jsonl:2:\d+: not JSON: .*\(the record is cut short/],
    ['a pretty-printed file broken on line 4', 'broken.json', '{\n  "data": {\n    "attributes": {\n      "status": "pending" "x"\n    }\n  }\n}\n', /broken\.json:4:\d+: not JSON/],
    ['a record without messages', 'empty.jsonl', '{"data":{"attributes":{"status":"pending"}}}\n', /empty\.jsonl:1: a transaction without messages/],
  ])('exit 1 naming file:line for %s, without quoting the record', async (_name, file, text, message) => {
    const f = write(file, text);
    const r = await runCli(['replay', HEAD, '--records', f], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    for (const p of PEOPLE) expect(r.stderr).not.toContain(p);
    expect(r.stdout).toBe('');
  });

  it('markdown is inert: backticks, pipes, HTML, @mentions and links from records do not act', async () => {
    const f = write('hostile.jsonl', `${JSON.stringify(record({ status: 'pending', category: null, last: '`x` | <img src=x onerror=alert(1)> @octocat see https://evil.example **bold**' }))}\n`);
    const r = await runCli(['replay', HEAD, '--records', f, '--format', 'markdown'], { cwd: dir });
    expect(r.code).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.includes('octocat'))!;
    expect(row).not.toMatch(/[`@]|<img|https:\/\/|\*\*/);
    expect(row.split('|').length).toBe(6); // | count | action | channel | shape |: no extra cell
  });
});
