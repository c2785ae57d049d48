import { describe, expect, it } from 'vitest';
import type { ApplyResult, ChangeOutcome } from '../../src/apply/types.js';
import { renderApplyJson } from '../../src/report/outcomes-json.js';
import { renderApplySummary, renderOutcomeLine } from '../../src/report/outcomes-text.js';
import { outcomeReasonText } from '../../src/report/outcome-reason.js';

const created: ChangeOutcome = { address: 'action["X"]', op: 'create', type: 'action', status: 'applied', id: '1a2b3c4d' };
const failed: ChangeOutcome = {
  address: 'action["X"].parser["p"]', op: 'update', type: 'parser', status: 'failed', id: '9',
  error: { message: 'PATCH /api/parsers/9 failed', status: 422, code: 'invalid_regex', detail: 'regex: unterminated group' },
};
const skipped: ChangeOutcome = { address: 'action["Y"].parser["q"]', op: 'create', type: 'parser', status: 'skipped', id: null, reason: { code: 'blocked', by: 'action["Y"]', blocker: { status: 'failed', op: 'create' } } };
const recovered: ChangeOutcome = { address: 'app["com.example.a"]', op: 'create', type: 'app', status: 'applied', id: '7', recovered: true };

function result(outcomes: ChangeOutcome[], more: Partial<ApplyResult> = {}): ApplyResult {
  const n = (s: ChangeOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  return { outcomes, interrupted: false, summary: { applied: n('applied'), failed: n('failed'), skipped: n('skipped') }, ...more };
}

describe('renderOutcomeLine', () => {
  it.each([
    [created, '✓ create action["X"] (id 1a2b3c4d)'],
    [failed, '✗ update action["X"].parser["p"]: HTTP 422 invalid_regex: regex: unterminated group (PATCH /api/parsers/9 failed)'],
    [skipped, '- skipped create action["Y"].parser["q"] (action["Y"] failed to create)'],
    [recovered, '✓ create app["com.example.a"] (id 7; found after a lost response, not created twice)'],
  ])('%#: one plain line', (outcome, line) => {
    expect(renderOutcomeLine(outcome, { color: false })).toBe(line);
  });

  it('a lost create\'s message, which starts with its address, names the address once (the JSON keeps the message whole)', () => {
    const message = 'app["com.example.a"]: the create\'s answer was lost (POST /api/apps: no answer) and the API cannot list these resources to check whether it exists; ' +
      'if it was created, adopt it with `menuctl import \'app["com.example.a"]\' ID`, else apply again with `--recreate \'app["com.example.a"]\'`';
    const lost: ChangeOutcome = { address: 'app["com.example.a"]', op: 'create', type: 'app', status: 'failed', id: null, error: { message } };
    const line = renderOutcomeLine(lost, { color: false });
    expect(line).toMatch(/^✗ create app\["com\.example\.a"\]: the create's answer was lost/);
    expect(line.split('app["com.example.a"]: ')).toHaveLength(2);
    expect(renderApplySummary(result([lost]), { color: false })).toContain('  ✗ create app["com.example.a"]: the create\'s answer was lost');
    expect(JSON.parse(renderApplyJson(result([lost]))).outcomes[0].error.message).toBe(message);
  });

  it('colours only when asked', () => {
    expect(renderOutcomeLine(failed, { color: true })).toContain('\x1b[31m✗\x1b[39m');
    expect(renderOutcomeLine(failed, { color: false })).not.toContain('\x1b[');
  });
});

describe('renderApplySummary', () => {
  it('lists failures with the API detail and skips with their reason, then the counts', () => {
    const text = renderApplySummary(result([created, failed, skipped]), { color: false });
    expect(text).toBe([
      'Failed (1):',
      '  ✗ update action["X"].parser["p"]: HTTP 422 invalid_regex: regex: unterminated group (PATCH /api/parsers/9 failed)',
      'Skipped (1):',
      '  - create action["Y"].parser["q"]: action["Y"] failed to create',
      'Apply finished with failures: 1 applied (1 created), 1 failed, 1 skipped.',
      '',
    ].join('\n'));
  });

  it('says it was interrupted and what to do next', () => {
    const text = renderApplySummary(result([created, { ...skipped, reason: { code: 'interrupted' } }], { interrupted: true }), { color: false });
    expect(text).toContain('Interrupted: no new change was started after the signal');
    expect(text).toContain('Run `menuctl plan` to see what is left');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Apply interrupted: 1 applied (1 created), 0 failed, 1 skipped.');
  });

  it('names the secrets file and the apps, never a secret', () => {
    const r = result([recovered], { secrets: { file: 'secrets.json', addresses: ['app["com.example.a"]'] } });
    Object.assign(r, { token: 'tok-SECRET' });
    const text = renderApplySummary(r, { color: false });
    expect(text).toContain('Secrets of 1 created app written to secrets.json (app["com.example.a"]).');
    expect(renderApplyJson(r)).not.toContain('SECRET');
    expect(text).toMatch(/Apply complete: 1 applied \(1 created\), 0 failed, 0 skipped\.\n$/);
  });
});

describe('apps whose secrets were not kept', () => {
  const lost: ChangeOutcome = { ...recovered, reason: { code: 'secrets-lost', cause: 'GET /api/apps/7: 500 internal_error' } };
  const lostWords = 'token not captured: the create answer was lost and reading the secrets back failed (GET /api/apps/7: 500 internal_error); read or rotate them in the API';
  const discarded: ChangeOutcome = { address: 'app["com.example.b"]', op: 'create', type: 'app', status: 'applied', id: '8', reason: { code: 'secrets-discarded' } };
  const kept: ChangeOutcome = { address: 'app["com.example.c"]', op: 'create', type: 'app', status: 'applied', id: '9', reason: { code: 'secrets-written', file: 's.json' } };

  it('print the reason on the applied line', () => {
    expect(renderOutcomeLine(lost, { color: false })).toBe(`✓ create app["com.example.a"] (id 7; found after a lost response, not created twice; ${lostWords})`);
    expect(renderOutcomeLine(discarded, { color: false })).toBe('✓ create app["com.example.b"] (id 8; secrets discarded (--discard-secrets))');
  });

  it('are listed in the summary, apart from those whose secrets were written', () => {
    const text = renderApplySummary(result([lost, discarded, kept], { secrets: { file: 's.json', addresses: [kept.address] } }), { color: false });
    expect(text).toContain([
      'Secrets of 1 created app written to s.json (app["com.example.c"]).',
      'Secrets NOT kept for 2 created apps (read or rotate the token in the API):',
      `  - app["com.example.a"]: ${lostWords}`,
      '  - app["com.example.b"]: secrets discarded (--discard-secrets)',
      'Apply complete: 3 applied (3 created), 0 failed, 0 skipped.',
    ].join('\n'));
  });
});

describe('renderApplyJson', () => {
  it('is one JSON document with the summary and every outcome', () => {
    const parsed = JSON.parse(renderApplyJson(result([created, failed, skipped])));
    expect(parsed.summary).toEqual({ applied: 1, failed: 1, skipped: 1 });
    expect(parsed.outcomes[1]).toEqual({
      address: 'action["X"].parser["p"]', op: 'update', type: 'parser', status: 'failed', id: '9',
      error: { message: 'PATCH /api/parsers/9 failed', status: 422, code: 'invalid_regex', detail: 'regex: unterminated group' },
    });
    expect(parsed.outcomes[2].reason).toBe('action["Y"] failed to create');
  });
});

describe('outcome reasons in words', () => {
  it.each<[ChangeOutcome['reason'] & object, string]>([
    [{ code: 'interrupted' }, 'interrupted'],
    [{ code: 'blocked', by: 'action["A"]', blocker: { status: 'failed', op: 'restore' } }, 'action["A"] failed to restore'],
    [{ code: 'blocked', by: 'action["A"]', blocker: { status: 'skipped', reason: { code: 'interrupted' } } }, 'action["A"] was skipped (interrupted)'],
    [{ code: 'blocked', by: 'action["A"]', blocker: { status: 'skipped', reason: undefined } }, 'action["A"] was skipped (unknown)'],
    [{ code: 'no-parent-id', by: 'action["A"]' }, 'action["A"] has no live id'],
    [{ code: 'secrets-written', file: 's.json' }, 'secrets written to s.json'],
    [{ code: 'secrets-with-api' }, 'its token and webhook secret stay with the API: `menuctl secrets pull --out FILE` reads them by the recorded id'],
    [{ code: 'secrets-discarded' }, 'secrets discarded (--discard-secrets)'],
  ])('%j', (reason, words) => {
    expect(outcomeReasonText(reason)).toBe(words);
  });
});
