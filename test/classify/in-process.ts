// classify() without the sandbox, for tests that check the device's semantics on trusted patterns.
// menuctl itself always runs regexes in the sandbox (src/classify/run-fixtures.ts classifyInSandbox),
// with a time budget; this is the same prepare/collect pipeline with the matching done in-process.
import { collect, prepare, type Classification, type Message } from '../../src/classify/classify.js';
import { namedValues } from '../../src/classify/java-regex.js';
import type { DesiredParser } from '../../src/model/types.js';

export function classify(message: Message, parsers: readonly DesiredParser[]): Classification {
  const prepared = prepare(message, parsers);
  return collect(prepared, prepared.runnable.map((r) => {
    const m = r.regex.exec(message.text);
    return m ? namedValues(m, r.groups) : null;
  }));
}
