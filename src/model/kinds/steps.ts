// An action's steps in their three forms: the value the API stores and echoes, the request's
// step attributes, and the canonical details the record keeps (what the API does not echo). Pure.

import type { Step, StepDetails } from './action-values.js';

/** One entry of `custom_steps_attributes` (spec: Step input object). */
export interface StepAttributes {
  order: string;
  is_param: 'true' | 'false';
  convert_val_to_num: 'true' | 'false';
  value: string;
  expected_text?: string;
  description: string;
}

/** The value the API stores and echoes in `attributes.steps` for a step. */
export function stepValue(step: Step): string {
  switch (step.kind) {
    case 'press':
      return step.value;
    case 'variable':
    case 'select':
      return step.name;
    case 'pin':
      return 'pin';
    case 'ok':
      return '-';
  }
}

// Step kinds are told apart only by this flag pair (spec: "Step kinds, distinguished by
// field combination").
const FLAGS: Record<Step['kind'], Pick<StepAttributes, 'is_param' | 'convert_val_to_num'>> = {
  press: { is_param: 'false', convert_val_to_num: 'false' },
  variable: { is_param: 'true', convert_val_to_num: 'false' },
  select: { is_param: 'true', convert_val_to_num: 'true' },
  pin: { is_param: 'false', convert_val_to_num: 'false' },
  ok: { is_param: 'false', convert_val_to_num: 'false' },
};

export function stepAttributes(step: Step, index: number): StepAttributes {
  const attrs: StepAttributes = {
    order: String(index),
    ...FLAGS[step.kind],
    value: stepValue(step),
    description: step.description ?? '',
  };
  if (step.kind === 'press' && step.expect !== undefined) attrs.expected_text = step.expect;
  return attrs;
}

/** True when the step carries something the API does not echo (its kind, expect text, description). */
export function hasHiddenStepDetails(step: Step): boolean {
  if (step.kind === 'variable' || step.kind === 'select') return true;
  if (step.description !== undefined && step.description !== '') return true;
  return step.kind === 'press' && step.expect !== undefined && step.expect !== '';
}

export function canonicalStep(step: Step): StepDetails {
  // Keys in the order kind, value, expect, name, description: config digests depend on it.
  const base = { kind: step.kind } as StepDetails;
  if (step.kind === 'press') {
    base.value = step.value;
    base.expect = step.expect ?? null;
  }
  if (step.kind === 'variable' || step.kind === 'select') base.name = step.name;
  base.description = step.description ?? '';
  return base;
}

/** A step as a saved plan holds it (plan/plan-file.ts): the keys the step has, in this order. */
export function stepJson(step: Step): Record<string, unknown> {
  const s = step as Partial<Record<'value' | 'name' | 'expect' | 'description', string>>;
  const out: Record<string, unknown> = { kind: step.kind };
  for (const key of ['value', 'name', 'expect', 'description'] as const) if (s[key] !== undefined) out[key] = s[key];
  return out;
}
