// The `custom_action` payload: create requires name, world_operator_ids, transport_type and
// root_code; PATCH takes any subset (the steps rule needs the stored action: see routes/actions.ts).

import { TRANSPORT_TYPES, type TransportType, type WorldOperator } from '../model/types.js';
import { FieldErrors } from './errors.js';
import { isObj, readEnum, readString, rootObject, type Obj } from './fields.js';

export const BOUNDS = {
  name: 255, root_code: 64, steps: 50, operators: 50, step_value: 255, step_text: 1024,
} as const;

/** A step as stored: every field the client sent, although responses echo only `value`. */
export interface StoredStep {
  is_param: boolean;
  convert_val_to_num: boolean;
  value: string;
  expected_text: string | null;
  description: string;
}

export interface ActionInput {
  name?: string;
  root_code?: string;
  transport_type?: TransportType;
  operator_ids?: number[];
  steps?: StoredStep[];
}

const P = '/custom_action';

export function readActionInput(body: unknown, mode: 'create' | 'patch', catalog: ReadonlyMap<number, WorldOperator>): ActionInput {
  const errs = new FieldErrors();
  const obj = rootObject(body, 'custom_action', errs);
  errs.throwIfAny();
  const required = mode === 'create';
  const out: ActionInput = {};
  const name = readString(obj!, 'name', P, { min: 1, max: BOUNDS.name, required, notBlank: true }, errs);
  if (typeof name === 'string') out.name = name;
  const rootCode = readString(obj!, 'root_code', P, { min: 1, max: BOUNDS.root_code, required, notBlank: true }, errs);
  if (typeof rootCode === 'string') out.root_code = rootCode;
  const transport = readEnum(obj!, 'transport_type', P, TRANSPORT_TYPES, required, errs);
  if (transport) out.transport_type = transport;
  const ops = readOperatorIds(obj!, required, catalog, errs);
  if (ops) out.operator_ids = ops;
  const steps = readSteps(obj!, errs);
  if (steps) out.steps = steps;
  errs.throwIfAny();
  return out;
}

function readOperatorIds(obj: Obj, required: boolean, catalog: ReadonlyMap<number, WorldOperator>, errs: FieldErrors): number[] | undefined {
  const ptr = `${P}/world_operator_ids`;
  const v = obj.world_operator_ids;
  if (v === undefined) {
    if (required) errs.add(ptr, 'required', 'world_operator_ids is required: ids from GET /api/world_operators');
    return undefined;
  }
  if (!Array.isArray(v)) {
    errs.add(ptr, 'invalid_type', 'world_operator_ids must be a list of operator ids (strings)');
    return undefined;
  }
  if (v.length < 1 || v.length > BOUNDS.operators) {
    errs.add(ptr, v.length < 1 ? 'too_short' : 'too_many', `world_operator_ids must hold 1 to ${BOUNDS.operators} ids (got ${v.length})`);
    return undefined;
  }
  const ids: number[] = [];
  let ok = true;
  v.forEach((raw, i) => {
    // The spec sends ids as strings; integers are accepted too (same meaning, no ambiguity).
    const text = typeof raw === 'number' ? String(raw) : raw;
    if (typeof text !== 'string' || !/^[0-9]{1,9}$/.test(text)) {
      errs.add(`${ptr}/${i}`, 'invalid_type', 'each operator id must be a string of digits, e.g. "2172"');
      ok = false;
      return;
    }
    const id = Number(text);
    if (!catalog.has(id)) {
      errs.add(`${ptr}/${i}`, 'unknown_operator', `world operator ${id} does not exist: see GET /api/world_operators`);
      ok = false;
    } else if (ids.includes(id)) {
      errs.add(`${ptr}/${i}`, 'duplicate', `world operator ${id} is listed twice`);
      ok = false;
    }
    ids.push(id);
  });
  return ok ? ids : undefined;
}

function readSteps(obj: Obj, errs: FieldErrors): StoredStep[] | undefined {
  const ptr = `${P}/custom_steps_attributes`;
  const v = obj.custom_steps_attributes;
  if (v === undefined) return undefined;
  if (!isObj(v)) {
    errs.add(ptr, 'invalid_type', 'custom_steps_attributes must be an object keyed "0", "1", ... (an empty object removes all steps)');
    return undefined;
  }
  const keys = Object.keys(v);
  if (keys.length > BOUNDS.steps) {
    errs.add(ptr, 'too_many', `an action has at most ${BOUNDS.steps} steps (got ${keys.length})`);
    return undefined;
  }
  const steps: StoredStep[] = [];
  let ok = true;
  for (let i = 0; i < keys.length; i++) {
    if (!(String(i) in v)) {
      errs.add(ptr, 'invalid_key', `custom_steps_attributes must be keyed "0" to "${keys.length - 1}" with no gaps (missing "${i}")`);
      return undefined;
    }
    const step = readStep(v[String(i)], i, `${ptr}/${i}`, errs);
    if (step) steps.push(step);
    else ok = false;
  }
  return ok ? steps : undefined;
}

const BOOL = ['true', 'false'] as const;
// A fixed-number step presses a menu option: digits, or the * and # keys.
const OPTION = /^[0-9*#]+$/;

function readStep(raw: unknown, index: number, ptr: string, errs: FieldErrors): StoredStep | undefined {
  if (!isObj(raw)) {
    errs.add(ptr, 'invalid_type', 'a step must be an object with order, is_param, convert_val_to_num, value, description');
    return undefined;
  }
  const before = errs.list.length;
  const order = readString(raw, 'order', ptr, { min: 1, max: 4, required: true }, errs);
  if (typeof order === 'string' && order !== String(index)) {
    errs.add(`${ptr}/order`, 'invalid_value', `order must equal the step's key "${index}" (got "${order}")`);
  }
  const isParam = readEnum(raw, 'is_param', ptr, BOOL, true, errs);
  const convert = readEnum(raw, 'convert_val_to_num', ptr, BOOL, true, errs);
  const value = readString(raw, 'value', ptr, { min: 1, max: BOUNDS.step_value, required: true, notBlank: true }, errs);
  const expected = readString(raw, 'expected_text', ptr, { min: 0, max: BOUNDS.step_text, nullable: true }, errs);
  const description = readString(raw, 'description', ptr, { min: 0, max: BOUNDS.step_text, nullable: true }, errs);
  if (errs.list.length > before) return undefined;
  // Step kinds are told apart by field combination (spec, "Step input object").
  if (isParam === 'false' && convert === 'true') {
    errs.add(`${ptr}/convert_val_to_num`, 'invalid_combination', 'convert_val_to_num "true" needs is_param "true" (a select-by-text step)');
    return undefined;
  }
  const fixed = isParam === 'false';
  const pressKind = fixed && value !== 'pin' && value !== '-';
  if (fixed && pressKind && !OPTION.test(value!)) {
    errs.add(`${ptr}/value`, 'invalid_value', 'a fixed step presses a menu option (digits, * or #), or is the literal "pin" or "-"');
    return undefined;
  }
  if (!pressKind && expected) {
    errs.add(`${ptr}/expected_text`, 'not_allowed', 'expected_text is only allowed on a fixed-number step');
    return undefined;
  }
  return {
    is_param: isParam === 'true',
    convert_val_to_num: convert === 'true',
    value: value!,
    expected_text: expected ?? null,
    description: description ?? '',
  };
}
