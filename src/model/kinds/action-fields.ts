// The action's fields, declared once (model/kinds/fields.ts says what an entry means). Two have
// their own codecs: operators (written as ids or names, resolved to world operator ids, echoed as
// names, compared as a sorted multiset of names) and steps (a small language of their own; the API
// echoes only each step's value, the record keeps the rest: model/kinds/steps.ts).

import type { OperatorRef, Step } from './action-values.js';
import { choice, custom, fieldTable, text } from './fields.js';
import { stepAttributes, stepJson, stepValue, type StepAttributes } from './steps.js';
import { byCodeUnit, str } from './values.js';

export const TRANSPORT_TYPES = ['ussd', 'stk', 'push', 'variable_longstring'] as const;
export type TransportType = (typeof TRANSPORT_TYPES)[number];

const poolAll = (list: string[], get: (s: string) => string): void => {
  for (let i = 0; i < list.length; i++) list[i] = get(list[i]!);
};

export const ACTION_FIELDS = {
  /** Its identity. */
  name: text(),
  root_code: text({ pooled: true }),
  transport_type: choice(TRANSPORT_TYPES, { fallback: 'ussd', pooled: true }),
  operators: custom<OperatorRef[], number[], string[], string[], 'operator_ids'>({
    resolvedName: 'operator_ids',
    // The API echoes [name, null] pairs.
    read: (v) => (v as unknown[]).map((pair) => (Array.isArray(pair) ? str(pair[0]) : str(pair))),
    // Names, sorted, duplicates kept: the API echoes only names, and names are not unique ("MTN"
    // is several operators), so the only honest comparison is a sorted multiset.
    canonicalLive: (names) => [...names].sort(byCodeUnit),
    canonical: (ids, nameOf) => ids.map(nameOf).sort(byCodeUnit),
    bodyName: 'world_operator_ids',
    body: (ids) => ids.map(String),
    planJson: (ids) => ids,
    pool: poolAll,
    plan: { type: 'array', items: { type: 'integer', minimum: 1 } },
    answer: { type: 'array', items: { type: 'array', minItems: 1, items: { type: ['string', 'null'] } } },
  }),
  steps: custom<Step[], Step[], string[], string[]>({
    optional: true,
    read: (v) => (v as unknown[]).map(str),
    // Values in order: the API echoes nothing else of a step (spec: Action.steps).
    canonicalLive: (values) => [...values],
    canonical: (steps) => steps.map(stepValue),
    // Always sent: the API requires them on PATCH too.
    bodyName: 'custom_steps_attributes',
    body: (steps) => {
      const out: Record<string, StepAttributes> = {};
      steps.forEach((step, i) => {
        out[String(i)] = stepAttributes(step, i);
      });
      return out;
    },
    planJson: (steps) => steps.map(stepJson),
    pool: poolAll,
    plan: { type: 'array', items: { $ref: '#/$defs/step' } },
    answer: { type: 'array', items: { type: 'string' } },
  }),
} as const;

export const ACTION_TABLE = fieldTable(ACTION_FIELDS);
