// Fixture checks: the channel and sender agree, expected categories exist on the action, and
// expected variables are named groups of the parser they name.

import { actionAddress } from '../../model/address.js';
import type { DesiredAction, Fixture } from '../../model/types.js';
import { didYouMean } from '../../text/suggest.js';
import { locBelow, locOf, report, type CheckContext } from './context.js';
import { namedGroups } from './groups.js';

export function checkFixtures(ctx: CheckContext): void {
  for (const f of ctx.files) for (const a of f.actions) for (const t of a.tests) checkFixture(ctx, a, t);
}

function checkFixture(ctx: CheckContext, a: DesiredAction, t: Fixture): void {
  const address = actionAddress(a.name);
  // With a sender the channel defaults to sms, so ussd here was written.
  if (t.channel === 'ussd' && t.sender !== undefined) {
    report(ctx, { code: 'semantic.fixture-channel', loc: locOf(ctx, t, 'channel'), address,
      message: 'a ussd fixture has no sender; remove `sender:` or use `channel: sms`.' });
  }
  if (t.channel === 'sms' && t.sender === undefined) {
    report(ctx, { code: 'semantic.fixture-channel', loc: locOf(ctx, t, 'channel'), address,
      message: 'an sms fixture needs `sender:` (SMS parsers match the sender exactly). Add it.' });
  }
  if (t.expect === 'none' || t.expect.category === undefined) return;
  const parser = a.parsers.find((p) => p.category === (t.expect as { category: string }).category);
  if (!parser) {
    const cats = a.parsers.map((p) => p.category);
    report(ctx, { code: 'semantic.fixture-category', address,
      loc: locBelow(t, ['expect', 'category']),
      message: `expect.category ${JSON.stringify(t.expect.category)} is not a parser category of this action.${didYouMean(t.expect.category, cats) || (cats.length ? ` Categories: ${cats.join(', ')}.` : ' The action has no parsers.')}` });
    return;
  }
  const groups = namedGroups(parser.regex);
  for (const name of Object.keys(t.expect.variables ?? {})) {
    if (groups.includes(name)) continue;
    report(ctx, { severity: 'warning', code: 'semantic.fixture-variable', address,
      loc: locBelow(t, ['expect', 'variables', name], { key: true }),
      message: `variable \`${name}\` is not a named group of parser ${JSON.stringify(parser.category)}${groups.length ? ` (groups: ${groups.join(', ')})` : ' (it has none)'}; this expectation can never hold.${didYouMean(name, groups)}` });
  }
}
