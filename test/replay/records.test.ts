// Reading records tolerantly (transaction.ts) and the shapes unclassified messages are grouped by (shape.ts).
import { describe, expect, it } from 'vitest';
import { replayTransactions } from '../../src/replay/transaction.js';
import { shapeOf } from '../../src/replay/shape.js';
import { jsonProblem } from '../../src/replay/read-records.js';

describe('replayTransactions', () => {
  it('puts sms_hits and sms_misses in timestamp order (epoch s, ms or ISO), the untimed last as listed', () => {
    const [t] = replayTransactions({ data: { attributes: {
      action_public_id: 'abc', action_name: 'A', status: 'succeeded', category: 'ok', session_messages: ['menu', { text: 'reply' }],
      sms_hits: [{ sender: 'S', message: 'third', timestamp: '2023-10-02T10:00:03Z' }, { sender: 'S', msg: 'untimed' }],
      sms_misses: [{ from: 'S', body: 'first', timestamp: 1696240801 }, { sender: 'S', text: 'second', received_at: 1696240802000 }],
    } } }) as ReturnType<typeof replayTransactions> & object[];
    expect(t).toEqual({ actionId: 'abc', actionName: 'A', status: 'succeeded', category: 'ok', reply: 'reply',
      sms: ['first', 'second', 'third', 'untimed'].map((message) => ({ sender: 'S', message })) });
  });

  it.each([
    ['no transaction', { hello: 1 }, /no transaction/],
    ['nothing to classify', { data: { attributes: { status: 'pending' } } }, /without messages/],
  ])('refuses %s', (_n, doc, message) => {
    expect(replayTransactions(doc)).toMatch(message);
  });

  it('reads a list of records and the attributes object alone', () => {
    const one = { session_messages: ['x'] };
    expect(replayTransactions([{ data: { attributes: one } }, one])).toHaveLength(2);
  });
});

describe('shapeOf', () => {
  it.each([
    ['Dear JOHN KAMAU, your balance is 1,200.50 KES', 'Dear <name>, your balance is <amount> KES'],
    ['QAB1CD2EF3 Confirmed. Sent to 0712345678 on 2/10/23 at 3:45 PM', '<code> Confirmed. Sent to <n> on <n>/<n>/<n> at <n>:<n> PM'],
    ['Service unavailable.\n  Try again in 15 minutes', 'Service unavailable. Try again in <n> minutes'],
    ['Pay KES1200 to M-PESA', 'Pay KES<n> to M-PESA'],
    ['Write to jane@example.org', 'Write to <email>'],
  ])('%j -> %j', (text, shape) => {
    expect(shapeOf(text)).toBe(shape);
  });
});

describe('jsonProblem', () => {
  it('drops the excerpt of the input V8 quotes (it can hold a phone number)', () => {
    expect(jsonProblem('Unexpected token \'x\', "+254712345678 x" is not valid JSON')).toEqual({ what: "Unexpected token 'x'", position: null });
    expect(jsonProblem('Expected property name or \'}\' in JSON at position 1 (line 1 column 2)')).toEqual({ what: "Expected property name or '}'", position: 1 });
  });
});
