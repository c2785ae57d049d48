// The values a Hover record shows entered at an action's `variable` and `select` steps, as the
// session's `variables:` (contract: "Sessions import with the config"). Value i answers screen i,
// which step i answers; a `select` step's value is the option number, so its variable takes the
// text of that option on the (scrubbed) screen, which is what `select` matches again. Pure.

import type { Step } from '../model/types.js';
import { menuOptions } from './options.js';

export interface EnteredVariables {
  variables: Record<string, string>;
  /** Steps whose value the record does not give, said in the session's comment. */
  problems: string[];
}

export function enteredVariables(
  steps: readonly Step[], valuesEntered: readonly string[], screens: readonly string[], scrub: (name: string, value: string) => string,
): EnteredVariables {
  const variables: Record<string, string> = {};
  const problems: string[] = [];
  steps.forEach((step, i) => {
    if (step.kind !== 'variable' && step.kind !== 'select') return;
    const value = valuesEntered[i];
    const where = `step ${i + 1} (${step.kind} ${step.name})`;
    if (value === undefined) {
      problems.push(`${where}: the record shows no value entered there (it has ${valuesEntered.length}).`);
      return;
    }
    if (step.kind === 'variable') {
      define(variables, step.name, scrub(step.name, value));
      return;
    }
    const option = menuOptions(screens[i] ?? '').find((o) => o.number === value.trim());
    if (option) define(variables, step.name, option.text);
    else problems.push(`${where}: option ${JSON.stringify(value)} is not on the screen it answered; set ${step.name} by hand.`);
  });
  return { variables, problems };
}

/** Own property even for a name such as __proto__. */
function define(o: Record<string, string>, k: string, v: string): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}
