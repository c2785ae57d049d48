// Defects found by the review of the sessions feature (each test failed before its fix).
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ACCOUNT, MENU, mpesaBalance, tempDir } from './helpers.js';

const tmp = tempDir('menuctl-review-');
afterAll(() => tmp.remove());

const ESC = /\x1b\[[0-9;]*m/g;

describe('transcript', () => {
  it('aligns a screen\'s later lines under its first on a colour terminal too', async () => {
    const file = tmp.write('color.yaml', mpesaBalance(`      - name: ok
        screens: [${MENU}, ${ACCOUNT}, "Enter PIN:", "Your request has been received."]
        sms:
          - { sender: MPESA, message: "QAB1CD2EF3 Confirmed.\\nYour balance is Ksh1.00 now." }
        expect: { category: request-received }
`));
    const plain = await runCli(['test', file, '--transcript']);
    const color = await runCli(['test', file, '--transcript'], { tty: true, env: { NO_COLOR: undefined } });
    expect(color.stdout).toMatch(ESC);
    expect(color.stdout.replace(ESC, '')).toBe(plain.stdout);
  });

  it('shows the screens no step answers', async () => {
    const file = tmp.write('extra.yaml', mpesaBalance(`      - name: extra
        screens: [${MENU}, ${ACCOUNT}, "Enter PIN:", "Your request has been received.", "Dial again to continue"]
        expect: { category: request-received }
`));
    const r = await runCli(['test', file, '--transcript']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('      ← Dial again to continue\n');
  });
});
