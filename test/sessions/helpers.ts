// Small configs for session tests, written to a temp directory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDir(prefix: string): { dir: string; write(name: string, text: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write: (name, text) => { const f = join(dir, name); writeFileSync(f, text); return f; },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** M-PESA balance: press 6 (My Account), press 1 (Balance), pin; a ussd pending parser and an sms balance parser. */
export function mpesaBalance(sessions: string): string {
  return `version: 1
actions:
  - name: Balance
    root_code: "*334#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 6
        expect: My Account
      - press: 1
        expect: Balance
      - pin
    parsers:
      - category: request-received
        status: pending
        regex: '.*request has been received.*'
      - category: balance
        status: succeeded
        target_type: sms
        sender: MPESA
        regex: '(?<code>[A-Z0-9]{10}) Confirmed\\. Your balance is Ksh(?<balance>[\\d,]+\\.\\d{2}).*'
      - category: wrong-pin
        status: failed
        regex: '.*wrong PIN.*'
    sessions:
${sessions}`;
}

export const MENU = '"M-PESA\\n1. Send money\\n2. Withdraw\\n6. My Account"';
export const MOVED = '"M-PESA\\n1. Send money\\n2. Withdraw\\n6. Lipa na M-PESA\\n7. My Account"';
export const ACCOUNT = '"My Account\\n1. Balance\\n2. Change PIN"';
