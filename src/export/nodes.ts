// YAML nodes for exported resources, built with the yaml Document API so they can carry
// comments (operator names, step-kind caveats) and pick scalar styles (regexes single-quoted:
// backslashes are literal there, so `\d` reads as written in the regex).

import { Document, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { LiveAction, LiveApp, LiveParser, WorldOperator } from '../model/types.js';
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

function map(doc: Document, entries: [string, unknown][]): YAMLMap {
  const m = doc.createNode({}) as YAMLMap;
  for (const [k, v] of entries) m.set(k, v);
  return m;
}

export function actionNode(doc: Document, action: LiveAction, parsers: LiveParser[], catalog: readonly WorldOperator[]): YAMLMap {
  const operators = new YAMLSeq();
  for (const op of exportOperators(action.operators, catalog)) {
    operators.items.push(commented(typeof op.ref === 'string' ? str(op.ref) : op.ref, op.comment));
  }
  if (action.operators.length === 0) operators.flow = true;
  const steps = new YAMLSeq();
  for (const value of action.steps) steps.items.push(stepNode(doc, value));
  if (action.steps.length === 0) steps.flow = true;

  const node = map(doc, [
    ['name', str(action.name)],
    ['root_code', str(action.root_code)],
    ['transport_type', str(action.transport_type)],
    ['operators', operators],
    ['steps', steps],
  ]);
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

/** Fields equal to the API's defaults are left out (ussd target, no sender, empty message). */
function parserNode(doc: Document, parser: LiveParser): YAMLMap {
  const entries: [string, unknown][] = [
    ['category', str(parser.category)],
    ['status', str(parser.status)],
  ];
  if (parser.target_type !== 'ussd') entries.push(['target_type', str(parser.target_type)]);
  if (parser.sender !== null && parser.sender !== '') entries.push(['sender', str(parser.sender)]);
  entries.push(['regex', single(parser.regex)]);
  if (parser.user_message !== '') entries.push(['user_message', str(parser.user_message)]);
  return map(doc, entries);
}

/** Apps carry no secrets here: the token and webhook secret stay with the API. */
export function appNode(doc: Document, app: LiveApp): YAMLMap {
  const entries: [string, unknown][] = [
    ['name', str(app.name)],
    ['package_name', str(app.package_name)],
  ];
  if (app.webhook_url !== null) entries.push(['webhook_url', str(app.webhook_url)]);
  return map(doc, entries);
}
