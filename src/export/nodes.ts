// YAML nodes for exported resources, built with the yaml Document API so they can carry
// comments (operator names, step-kind caveats) and pick scalar styles (regexes single-quoted:
// backslashes are literal there, so `\d` reads as written in the regex).

import { Document, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { StepDetails } from '../model/types.js';
import type { LiveAction, LiveApp, LiveParser, WorldOperator } from '../model/types.js';
import { ACTION_TABLE } from '../model/kinds/action-fields.js';
import { APP_TABLE } from '../model/kinds/app-fields.js';
import type { ExportEntry } from '../model/kinds/fields.js';
import { PARSER_TABLE } from '../model/kinds/parser-fields.js';
import { exportOperators } from './operators.js';
import { inferStep } from './steps.js';

// Plain in YAML 1.2 but booleans or null to a YAML 1.1 reader (some editors and CI tools):
// quote them so every reader sees a string.
const YAML11_AMBIGUOUS = /^(y|n|yes|no|on|off|true|false|null|~)$/i;

export function str(value: string): Scalar<string> {
  const s = new Scalar(value);
  if (YAML11_AMBIGUOUS.test(value)) s.type = Scalar.QUOTE_DOUBLE;
  return s;
}

function single(value: string): Scalar<string> {
  const s = new Scalar(value);
  s.type = Scalar.QUOTE_SINGLE;
  return s;
}

function commented<T>(value: T, comment: string): Scalar<T> {
  const s = value instanceof Scalar ? (value as Scalar<T>) : new Scalar(value);
  s.comment = ` ${comment}`;
  return s;
}

/** A kind's scalar fields as export writes them (model/kinds/fields.ts `exportEntries`: defaults left out). */
function fieldEntries(fields: readonly ExportEntry[]): [string, unknown][] {
  return fields.map((f) => [f.name, f.quoted === 'single' ? single(String(f.value)) : typeof f.value === 'string' ? str(f.value) : f.value]);
}

function map(doc: Document, entries: [string, unknown][]): YAMLMap {
  const m = doc.createNode({}) as YAMLMap;
  for (const [k, v] of entries) m.set(k, v);
  return m;
}

/**
 * `recorded`: the steps as the applied-state record holds them (kind, expect, description),
 * used for each step whose live value they still match; other steps are inferred from values.
 */
export function actionNode(
  doc: Document, action: LiveAction, parsers: LiveParser[], catalog: readonly WorldOperator[], recorded: readonly StepDetails[] = [],
): YAMLMap {
  const operators = new YAMLSeq();
  for (const op of exportOperators(action.operators, catalog)) {
    operators.items.push(commented(typeof op.ref === 'string' ? str(op.ref) : op.ref, op.comment));
  }
  if (action.operators.length === 0) operators.flow = true;
  const steps = new YAMLSeq();
  action.steps.forEach((value, i) => {
    const known = recorded[i];
    steps.items.push(known !== undefined && valueOf(known) === value ? recordedStepNode(doc, known) : stepNode(doc, value));
  });
  if (action.steps.length === 0) steps.flow = true;

  const node = map(doc, [...fieldEntries(ACTION_TABLE.exportEntries(action)), ['operators', operators], ['steps', steps]]);
  if (action.operators.length === 0) {
    operators.comment = ' the live action has no operators, but the config needs at least one: add one before applying';
  }
  if (parsers.length > 0) {
    const seq = new YAMLSeq();
    for (const p of parsers) seq.items.push(parserNode(doc, p));
    node.set('parsers', seq);
  }
  return node;
}

function stepNode(doc: Document, value: string): unknown {
  const step = inferStep(value);
  switch (step.kind) {
    case 'pin':
    case 'ok':
      return new Scalar(step.kind);
    case 'press':
      return map(doc, [['press', typeof step.value === 'number' ? step.value : str(step.value)]]);
    case 'variable':
      return map(doc, [['variable', commented(str(step.name), step.comment)]]);
  }
}

/** The value the API echoes for a step (spec: Action.steps). */
function valueOf(step: StepDetails): string {
  if (step.kind === 'pin') return 'pin';
  if (step.kind === 'ok') return '-';
  return step.kind === 'press' ? (step.value ?? '') : (step.name ?? '');
}

/** A step as the config wrote it, in its shortest form (`pin`, `ok` when there is no description). */
function recordedStepNode(doc: Document, step: StepDetails): unknown {
  const described: [string, unknown][] = step.description !== '' ? [['description', str(step.description)]] : [];
  switch (step.kind) {
    case 'pin':
    case 'ok':
      return described.length === 0 ? new Scalar(step.kind) : map(doc, [[step.kind, true], ...described]);
    case 'press': {
      const value = step.value ?? '';
      const press: [string, unknown] = ['press', /^(0|[1-9][0-9]{0,14})$/.test(value) ? Number(value) : str(value)];
      const expect: [string, unknown][] = step.expect ? [['expect', str(step.expect)]] : [];
      return map(doc, [press, ...expect, ...described]);
    }
    case 'variable':
    case 'select':
      return map(doc, [[step.kind, str(step.name ?? '')], ...described]);
  }
}

/** Fields equal to the API's defaults are left out (ussd target, no sender, no message). */
function parserNode(doc: Document, parser: LiveParser): YAMLMap {
  return map(doc, fieldEntries(PARSER_TABLE.exportEntries(parser)));
}

/** Apps carry no secrets here: the token and webhook secret stay with the API. */
/**
 * `pinId`: where the server cannot list apps, a plan of the exported config finds an app only by
 * a pinned `id:` (the record beside the export may not exist), else it would create it again.
 */
export function appNode(doc: Document, app: LiveApp, pinId = false): YAMLMap {
  const entries = fieldEntries(APP_TABLE.exportEntries(app));
  if (pinId) entries.push(['id', str(app.id)]);
  return map(doc, entries);
}
