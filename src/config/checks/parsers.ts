// Per-parser checks: sender vs target_type, and the regex dialect lint (src/classify/lint.ts),
// each issue placed at the regex value (at the offending character when the scalar allows it).

import { lintRegex, type RegexIssue } from '../../classify/lint.js';
import { parserAddress } from '../../model/address.js';
import type { DesiredAction, DesiredParser } from '../../model/types.js';
import { charLocOf, locOf, report, type CheckContext } from './context.js';

export function checkParsers(ctx: CheckContext): void {
  // Real configs repeat patterns (".*wrong PIN.*" on every action): lint each distinct one once.
  const lint = new Map<string, RegexIssue[]>();
  for (const f of ctx.files) {
    for (const a of f.actions) for (const p of a.parsers) {
      checkSender(ctx, a, p);
      // The backtracking policy depends on the channel's message length (docs/regex.md).
      const key = `${p.target_type}\0${p.regex}`;
      let issues = lint.get(key);
      if (!issues) lint.set(key, (issues = p.regex === '' ? [] : lintRegex(p.regex, { channel: p.target_type })));
      checkRegex(ctx, a, p, issues);
    }
  }
}

function checkSender(ctx: CheckContext, a: DesiredAction, p: DesiredParser): void {
  const sms = p.target_type === 'sms';
  if (sms ? p.sender !== null && p.sender !== '' : p.sender === null) return;
  const address = parserAddress(a.name, p.category);
  if (sms) {
    report(ctx, { code: 'semantic.sender-required', loc: locOf(ctx, p, 'target_type'), address,
      message: 'an sms parser needs `sender:` (the SMS sender id, matched exactly, e.g. MPESA). Add it.' });
  } else {
    report(ctx, { severity: 'warning', code: 'semantic.sender-ignored', loc: locOf(ctx, p, 'sender', { key: true }), address,
      message: 'sender is ignored on a ussd parser; add `target_type: sms` if this parser reads SMS, or remove sender.' });
  }
}

function checkRegex(ctx: CheckContext, a: DesiredAction, p: DesiredParser, issues: RegexIssue[]): void {
  if (issues.length === 0) return;
  for (const issue of issues) {
    const loc = issue.index !== undefined ? charLocOf(p, 'regex', issue.index) : locOf(ctx, p, 'regex');
    report(ctx, { severity: issue.severity, code: issue.code, message: issue.message, loc, address: parserAddress(a.name, p.category) });
  }
}
