// The plan as a person reads it in a terminal or a CI log, modelled on Terraform's:
// one block per change, field-level before -> after, lists and long values as +/- diffs.

import type { Warning } from '../model/diagnostic.js';
import type { Plan } from '../plan/types.js';
import type { ChangeOp } from '../plan/types.js';
import { safetyNotes, summaryLine, unmanagedToShow, viewChange, type ChangeView } from './plan-model.js';
import { plural } from '../text/plural.js';
import type { DiffLine, FieldView } from './plan-values.js';
import { inert } from '../text/inert.js';
import { style, type Style } from './style.js';

export interface TextOptions {
  color: boolean;
  /** Terminal columns; values that do not fit become block diffs. Default 100. */
  width?: number;
}

const FIELD_INDENT = '      ';
const DEFAULT_WIDTH = 100;

export function renderPlanText(plan: Plan, options: TextOptions): string {
  return [...planTextChunks(plan, options)].join('');
}

/**
 * The same text in pieces of whole lines (the header, each change, the rest), for a caller that
 * writes as it goes: a big plan's text need never be one string.
 */
export function* planTextChunks(plan: Plan, options: TextOptions): Generator<string> {
  const st = style(options.color);
  const width = options.width ?? DEFAULT_WIDTH;
  yield lines(headerLines(plan, st));
  for (const change of plan.changes) {
    yield lines([...changeLines(viewChange(change, width - FIELD_INDENT.length - 2), st), '']);
  }
  yield lines([...unmanagedLines(plan, st), ...warningLines(plan.warnings, st), ...safetyLines(plan, st), st.bold(summaryLine(plan))]);
}

const lines = (list: readonly string[]): string => (list.length === 0 ? '' : `${list.join('\n')}\n`);

/**
 * A saved plan carried out with --yes was reviewed when it was made (`plan --out`): like
 * `terraform apply FILE`, apply does not print it again, only what it carries out and, next to
 * that, what the safety checks say. Each change still gets its own line as it is applied.
 */
export function renderSavedPlanBrief(plan: Plan, file: string, options: TextOptions): string {
  const st = style(options.color);
  return [`Carrying out the saved plan ${inert(file)}${whereText(plan)}:`, ...safetyLines(plan, st), st.bold(summaryLine(plan))].join('\n') + '\n';
}

/** " in organization N (environment E)", or less when the plan does not say. */
function whereText(plan: Plan): string {
  const env = plan.environment !== undefined ? ` (environment ${inert(plan.environment)})` : '';
  return `${plan.organization_id === null ? '' : ` in organization ${plan.organization_id}`}${env}`;
}

function headerLines(plan: Plan, st: Style): string[] {
  const lines: string[] = [];
  const org = whereText(plan);
  const n = plan.changes.length;
  if (n > 0) {
    lines.push(`menuctl will make ${plural(n, 'change')}${org}:`);
    lines.push(st.dim(`  ${st.green('+')} create   ${st.yellow('~')} update   ${st.red('-')} archive   ${st.cyan('↺')} restore`));
  } else {
    lines.push(`menuctl compared the configuration with the live API${org}.`);
  }
  if (plan.targets.length > 0) lines.push(`Limited to --target ${plan.targets.map(inert).join(', ')}`);
  if (plan.prune) lines.push('--prune: resources not in the configuration are archived.');
  lines.push('');
  return lines;
}

function colorFor(op: ChangeOp, st: Style): (s: string) => string {
  switch (op) {
    case 'create': return st.green;
    case 'update': return st.yellow;
    case 'archive': return st.red;
    case 'restore': return st.cyan;
  }
}

function changeLines(view: ChangeView, st: Style): string[] {
  const paint = colorFor(view.op, st);
  const id = view.id === null ? '' : st.dim(` (id ${view.id})`);
  const lines = [`  ${paint(`${view.symbol} ${view.op.padEnd(7)}`)} ${st.bold(view.address)}${id}`];
  for (const note of view.notes) lines.push(`${FIELD_INDENT}${st.dim(`# ${note}`)}`);
  const pad = Math.max(0, ...view.fields.map((f) => (f.kind === 'block' ? 0 : f.path.length)));
  for (const f of view.fields) lines.push(...fieldLines(f, pad, view.op === 'create' ? '+' : '~', st));
  return lines;
}

function fieldLines(f: FieldView, pad: number, sign: '+' | '~', st: Style): string[] {
  const mark = sign === '+' ? st.green('+') : st.yellow('~');
  switch (f.kind) {
    case 'value':
      return [`${FIELD_INDENT}${mark} ${`${f.path}:`.padEnd(pad + 1)} ${f.text}`];
    case 'inline':
      return [`${FIELD_INDENT}${mark} ${`${f.path}:`.padEnd(pad + 1)} ${f.before} ${st.dim('->')} ${f.after}`];
    case 'block':
      return [`${FIELD_INDENT}${mark} ${f.path}:`, ...f.lines.map((l) => `${FIELD_INDENT}    ${diffLine(l, st)}`)];
  }
}

export function diffLine(l: DiffLine, st: Style): string {
  if (l.mark === '+') return st.green(`+ ${l.text}`);
  if (l.mark === '-') return st.red(`- ${l.text}`);
  return st.dim(`  ${l.text}`);
}

function unmanagedLines(plan: Plan, st: Style): string[] {
  const shown = unmanagedToShow(plan);
  if (shown.length === 0) return [];
  const why = plan.prune ? 'not in the configuration' : 'not in the configuration; left alone, archived only with --prune';
  const lines = [`Unmanaged (${why}):`];
  for (const u of shown) lines.push(`  ${st.dim('?')} ${inert(u.address)} ${st.dim(`(id ${inert(u.id)})`)}`);
  return [...lines, ''];
}

/** Next to the summary line, where a reviewer looks last: apply would refuse, or --force said yes. */
function safetyLines(plan: Plan, st: Style): string[] {
  const notes = safetyNotes(plan);
  if (notes.length === 0) return [];
  return [...notes.map((n) => (n.refuse ? st.red(st.bold(`✗ ${n.text}`)) : st.yellow(`! ${n.text}`))), ''];
}

export function warningLines(warnings: readonly Warning[], st: Style): string[] {
  if (warnings.length === 0) return [];
  return [st.yellow('Warnings:'), ...warnings.map((w) => `  ${st.yellow('!')} ${inert(w.message)}`), ''];
}
