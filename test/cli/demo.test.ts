// The README's first command: `npm run demo` must work on a clean machine, end to end.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('menuctl demo', () => {
  it('validates, tests, plans, applies, converges, shows drift and repairs it', async () => {
    const r = await runCli(['demo'], { env: {} });
    // Against the API as the real service offers it (spec-only), the one thing menuctl cannot
    // check is whether an app appeared since the plan (no GET /api/apps): it says so, as it will there.
    expect(r.stderr).toMatch(/^Warning: not checked for staleness: app\["com\.example\.agent"\], app\["com\.example\.merchant\.till"\] \(the server has no GET \/api\/apps[^\n]*\n$/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('It serves only what the real service offers (serve --spec-only)');
    const steps = [...r.stdout.matchAll(/── \d+\. menuctl (\w+)/g)].map((m) => m[1]);
    expect(steps).toEqual(['validate', 'test', 'replay', 'plan', 'apply', 'plan', 'drift', 'apply', 'drift']);
    // A parser change replayed on examples/records: two recorded outcomes move, the outage stays unread.
    expect(r.stdout).toContain('      2  none  failed/wrong-pin');
    expect(r.stdout).toContain('"Service temporarily unavailable. Please try again after <n> minutes. Ref <n>"');
    expect(r.stdout).toMatch(/\n\d+ passed, 0 failed\n/);
    // One session is shown as a dialogue: the dialled code, the screens, the PIN masked, the outcome.
    expect(r.stdout).toContain('      → *334#\n      ← M-PESA\n');
    expect(r.stdout).toContain('      → **** (PIN)\n');
    expect(r.stdout).toContain('      = outcome: balance (succeeded)');
    expect(r.stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to archive, 0 to restore\./);
    // The plan is saved by the plan step and carried out by apply --plan without printing it again.
    expect(r.stdout).toMatch(/── 5\. menuctl apply --plan \S+plan\.json /);
    expect(r.stdout.split('+ create  action["M-PESA balance"]\n')).toHaveLength(2);
    expect(r.stdout).toMatch(/Carrying out the saved plan \S+plan\.json in organization 1:\nPlan: 21 to create/);
    expect(r.stdout).toContain('Drift: 1 changed, 0 archived, 0 missing, 0 unmanaged.');
    expect(r.stdout).toContain('No drift: the live API matches the configuration.');
    // The apps' secrets went to the secrets file, never to the output.
    expect(r.stdout).not.toMatch(/\b[0-9a-f]{32}\b/);
    expect(r.stdout).not.toContain('eyJ'); // no JWT either
  });

  it('--full runs the reference server with its extensions, where nothing is left unchecked', async () => {
    const r = await runCli(['demo', '--full'], { env: {} });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('It runs with the reference extensions');
    expect(r.stdout).toContain('No drift: the live API matches the configuration.');
  });
});
