// The API echoes a step's value only (spec: Action.steps), so export infers the kind from it.
// `pin` and `-` are literal markers; digits, * and # are a fixed option to press; anything
// else is a run-time variable name, which may equally have been a `select` step: the API
// stores that difference (convert_val_to_num) but never returns it.

export type InferredStep =
  | { kind: 'pin' }
  | { kind: 'ok' }
  | { kind: 'press'; value: string | number }
  | { kind: 'variable'; name: string; comment: string };

const PRESS = /^[0-9*#]+$/;
/** Integers only when writing one keeps the exact text ("01" must stay a string). */
const CANONICAL_INT = /^(0|[1-9][0-9]{0,14})$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const SELECT_HINT = 'may be a `select` step: the API does not say';

export function inferStep(value: string): InferredStep {
  if (value === 'pin') return { kind: 'pin' };
  if (value === '-') return { kind: 'ok' };
  if (PRESS.test(value)) return { kind: 'press', value: CANONICAL_INT.test(value) ? Number(value) : value };
  const comment = VARIABLE_NAME.test(value)
    ? SELECT_HINT
    : `${SELECT_HINT}; not a valid variable name, so \`menuctl validate\` will reject it: rename it here and live`;
  return { kind: 'variable', name: value, comment };
}
