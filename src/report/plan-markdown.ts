// The plan as a pull-request comment. The first line is a fixed HTML comment marker so a CI job
// can find its previous comment and edit it instead of adding a new one on every push.
// Each change is a collapsed <details> with a ```diff block (GitHub colours +/- lines).

import type { ResolvedAction, Plan } from '../plan/types.js';
import { actionAddress } from '../model/address.js';
import type { Warning } from '../model/diagnostic.js';
import type { DesiredAction } from '../model/types.js';
import { renderFlowchart } from './flowchart.js';
import { changeCount, safetyNotes, summaryLine, unmanagedToShow, viewChange, type ChangeView } from './plan-model.js';
import { plural } from '../text/plural.js';
import type { DiffLine, FieldView } from './plan-values.js';
import { code, details, fenced, fitDocument, mdProse, mdText, warningsList, type Section } from './markdown-util.js';

export const PLAN_MARKER = '<!-- menuctl:plan -->';

export interface MarkdownOptions {
  /** GitHub rejects comments over 65,536 characters; leave room for the CI job's own text. */
  maxChars?: number;
  /**
   * The desired actions, so each changed action's flowchart shows all its parsers. Without them
   * (a saved plan) the flowchart is drawn from the plan: the action's own change and the parsers
   * the plan touches.
   */
  actions?: readonly DesiredAction[];
}

/** Field values wider than this become block diffs (PR diff blocks scroll, but less is better). */
const MD_WIDTH = 100;

export function renderPlanMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? 60_000;
  const title = plan.environment !== undefined ? `## menuctl plan: environment ${code(plan.environment)}` : '## menuctl plan';
  const head = [PLAN_MARKER, title, '', ...summaryTable(plan)].join('\n');
  const tail = `**${summaryLine(plan)}**`;
  const sections: Section[] = [];
  if (plan.warnings.length > 0) sections.push({ text: warningsMd(plan.warnings), items: 0 });
  for (const c of plan.changes) sections.push({ text: changeMd(viewChange(c, MD_WIDTH)), items: 1 });
  const shown = unmanagedToShow(plan);
  if (shown.length > 0) sections.push({ text: unmanagedMd(plan, shown), items: 0 });

  const note = (n: number) =>
    `> [!WARNING]\n> ${plural(n, 'change')} left out to keep this comment under ${maxChars} characters. ` +
    'See the CI log for the full plan.';
  const base = fitDocument({ head, sections, tail, maxChars, note });
  // Pictures only in the room the plan leaves: a flowchart never displaces a change.
  // fitDocument keeps a document under maxChars by one character; the room follows the same rule,
  // so a flowchart that fills it is kept instead of being dropped with a "0 changes left out" note.
  let room = base.includes(' left out to keep this comment under ') ? 0 : maxChars - 1 - base.length;
  for (const text of flowchartSections(plan, options.actions)) {
    if (text.length + 2 > room) break;
    sections.push({ text, items: 0 });
    room -= text.length + 2;
  }
  return fitDocument({ head, sections, tail, maxChars, note });
}

/** One collapsed flowchart per action the plan creates, updates or restores, or whose parsers it changes. */
function flowchartSections(plan: Plan, actions: readonly DesiredAction[] | undefined): string[] {
  const changed = new Map<string, ResolvedAction | null>();
  for (const c of plan.changes) {
    if (c.op === 'archive') continue;
    if (c.type === 'action') changed.set(c.address, c.desired);
    else if (c.type === 'parser' && !changed.has(c.parent)) changed.set(c.parent, null);
  }
  const out: string[] = [];
  for (const [address, fromPlan] of changed) {
    const desired = actions?.find((a) => actionAddress(a.name) === address);
    const action = desired ?? fromPlan;
    if (!action) continue;
    const parsers = desired?.parsers ?? plan.changes.flatMap((c) => (c.op !== 'archive' && c.type === 'parser' && c.parent === address ? [c.desired] : []));
    out.push(details(`flowchart of ${code(address)}`, renderFlowchart(action, parsers, { partial: !desired })));
  }
  return out;
}

function summaryTable(plan: Plan): string[] {
  const s = plan.summary;
  const org = plan.organization_id === null ? '' : ` in organization ${plan.organization_id}`;
  const lines = [`${plural(changeCount(s), 'change')}${org}.`];
  if (plan.targets.length > 0) lines.push('', `Limited to \`--target\` ${plan.targets.map(code).join(', ')}.`);
  if (plan.prune) lines.push('', '`--prune`: resources not in the configuration are archived.');
  return [
    ...lines,
    '',
    '| + create | ~ update | - archive | ↺ restore |',
    '|---:|---:|---:|---:|',
    `| ${s.create} | ${s.update} | ${s.archive} | ${s.restore} |`,
    ...safetyMd(plan),
  ];
}

/** At the top of the comment: a reviewer must see that apply will refuse before reading the diff. */
function safetyMd(plan: Plan): string[] {
  const notes = safetyNotes(plan);
  if (notes.length === 0) return [];
  const refuse = notes.some((n) => n.refuse);
  // One alert block; several notes become its list items.
  const body = notes.length === 1 ? [`> ${mdProse(notes[0]!.text)}`] : notes.map((n) => `> - ${mdProse(n.text)}`);
  return ['', refuse ? '> [!CAUTION]' : '> [!WARNING]', ...body];
}

function changeMd(view: ChangeView): string {
  const id = view.id === null ? '' : ` (id ${code(view.id)})`;
  const summary = `${code(`${view.symbol} ${view.op}`)} ${code(view.address)}${id}`;
  const lines: string[] = view.notes.map((n) => `# ${n}`);
  if (view.op === 'archive') lines.push(`- ${view.address}`);
  const pad = Math.max(0, ...view.fields.map((f) => (f.kind === 'block' ? 0 : f.path.length)));
  for (const f of view.fields) lines.push(...fieldMd(f, pad));
  if (lines.length === 0) lines.push(`  ${view.address}`);
  return details(summary, fenced('diff', lines));
}

function fieldMd(f: FieldView, pad: number): string[] {
  const key = `${f.path}:`.padEnd(pad + 1);
  switch (f.kind) {
    case 'value':
      return [`+ ${key} ${f.text}`];
    case 'inline':
      return [`- ${key} ${f.before}`, `+ ${key} ${f.after}`];
    case 'block':
      return [`  ${f.path}:`, ...f.lines.map(blockLine)];
  }
}

function blockLine(l: DiffLine): string {
  return `${l.mark}     ${l.text}`;
}

export function warningsMd(warnings: readonly Warning[]): string {
  return warningsList(warnings);
}

function unmanagedMd(plan: Plan, shown: Plan['unmanaged']): string {
  const why = plan.prune ? '' : ' (left alone; archived only with `--prune`)';
  return [
    `**Unmanaged**: live, not in the configuration${why}`,
    '',
    ...shown.map((u) => `- ${code(u.address)} (id ${code(u.id)})`),
  ].join('\n');
}
