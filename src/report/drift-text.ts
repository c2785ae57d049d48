// Drift for a terminal or a scheduled job's log: grouped by class, fields as expected vs live.
import type { Drift, DriftItem } from '../plan/drift-types.js';
import { byClass, CLASS_INFO, driftAdvice, driftFieldView, driftSummaryLine } from './drift-model.js';
import { diffLine, warningLines } from './plan-text.js';
import type { FieldView } from './plan-values.js';
import { inert } from '../text/inert.js';
import { style, type Style } from './style.js';

export interface DriftTextOptions {
  color: boolean;
  width?: number;
}

const FIELD_INDENT = '      ';

export function renderDriftText(drift: Drift, options: DriftTextOptions): string {
  const st = style(options.color);
  const width = (options.width ?? 100) - FIELD_INDENT.length;
  const out: string[] = drift.environment !== undefined ? [st.bold(`Environment: ${inert(drift.environment)}`), ''] : [];
  for (const [cls, items] of byClass(drift)) {
    if (items.length === 0) continue;
    const info = CLASS_INFO[cls];
    out.push(st.bold(`${cls} (${items.length}): ${info.meaning}`));
    for (const item of items) out.push(...itemLines(item, width, st));
    out.push('');
  }
  out.push(...warningLines(drift.warnings, st));
  // Before the summary, which stays the last line (scripts read it).
  const advice = driftAdvice(drift);
  if (advice !== null) out.push(advice);
  const last = driftSummaryLine(drift);
  out.push(drift.drift.length === 0 ? st.green(last) : st.bold(last));
  return out.join('\n') + '\n';
}

function paintFor(item: DriftItem, st: Style): (s: string) => string {
  return item.class === 'changed' ? st.yellow : item.class === 'unmanaged' ? st.cyan : st.red;
}

function itemLines(item: DriftItem, width: number, st: Style): string[] {
  const id = item.id === null ? '' : st.dim(` (id ${inert(item.id)})`);
  const lines = [`  ${paintFor(item, st)(CLASS_INFO[item.class].symbol)} ${inert(item.address)}${id}`];
  const views = item.fields.map((f) => driftFieldView(f, width - 16));
  const pad = Math.max(0, ...views.map((v) => (v.kind === 'block' ? 0 : v.path.length)));
  for (const v of views) lines.push(...fieldLines(v, pad, st));
  return lines;
}

function fieldLines(v: FieldView, pad: number, st: Style): string[] {
  switch (v.kind) {
    case 'inline':
      return [`${FIELD_INDENT}${`${v.path}:`.padEnd(pad + 1)} expected ${v.before}, live ${st.yellow(v.after)}`];
    case 'value':
      return [`${FIELD_INDENT}${`${v.path}:`.padEnd(pad + 1)} ${v.text}`];
    case 'block':
      return [
        `${FIELD_INDENT}${v.path}: ${st.dim('(- expected, + live)')}`,
        ...v.lines.map((l) => `${FIELD_INDENT}    ${diffLine(l, st)}`),
      ];
  }
}
