// The value types of an action's two fields with their own codecs (model/kinds/action-fields.ts):
// its steps and its operators as the config writes them. Here, below model/types.ts, so the field
// table can name them and the types can be mapped from the table. Pure.

import type { SourceLoc } from '../diagnostic.js';

/** The step kinds, in the order the docs list them. */
export const STEP_KINDS = ['press', 'variable', 'select', 'pin', 'ok'] as const;

/**
 * One menu step. The API stores each step as {is_param, convert_val_to_num, value,
 * expected_text?, description} but echoes only `value` (spec: Action.steps).
 */
export type Step =
  | { kind: 'press'; value: string; expect?: string; description?: string }
  | { kind: 'variable'; name: string; description?: string }
  | { kind: 'select'; name: string; description?: string }
  | { kind: 'pin'; description?: string }
  | { kind: 'ok'; description?: string };

/** A step as the config says it, every detail included (the digest, and the applied-state record). */
export interface StepDetails {
  kind: Step['kind'];
  value?: string;
  name?: string;
  expect?: string | null;
  description: string;
}

/** An operator as written in the config: a world operator id or its exact name. */
export interface OperatorRef {
  ref: number | string;
  loc?: SourceLoc;
}
