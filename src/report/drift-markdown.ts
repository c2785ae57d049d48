// Drift as markdown for $GITHUB_STEP_SUMMARY or an issue a scheduled job files. The marker
// line lets the job find and update its own issue comment rather than pile up new ones.
import type { Drift, DriftItem } from '../plan/drift-types.js';
import { byClass, CLASS_INFO, CLASSES, driftAdvice, driftFieldView, driftSummaryLine } from './drift-model.js';
import { code, details, fenced, fitDocument, warningsList, type Section } from './markdown-util.js';
import { plural } from '../text/plural.js';

export const DRIFT_MARKER = '<!-- menuctl:drift -->';

export function renderDriftMarkdown(drift: Drift, options: { maxChars?: number } = {}): string {
  const maxChars = options.maxChars ?? 60_000;
  const groups = byClass(drift);
  const head = [
    DRIFT_MARKER,
    drift.environment !== undefined ? `## menuctl drift: environment ${code(drift.environment)}` : '## menuctl drift',
    '',
    '| class | meaning | count |',
    '|---|---|---:|',
    ...CLASSES.filter((c) => c !== 'removed' || groups.get(c)!.length > 0).map((c) => `| ${c} | ${CLASS_INFO[c].meaning} | ${groups.get(c)!.length} |`),
  ].join('\n');
  const advice = driftAdvice(drift);
  const tail = `${advice === null ? '' : `${advice}\n\n`}**${driftSummaryLine(drift)}**`;
  const sections: Section[] = [];
  if (drift.warnings.length > 0) {
    sections.push({ text: warningsList(drift.warnings), items: 0 });
  }
  for (const item of drift.drift) sections.push({ text: itemMd(item), items: 1 });
  const note = (n: number) =>
    `> [!WARNING]\n> ${plural(n, 'drifted resource')} left out to stay under ${maxChars} characters. See the CI log for the full report.`;
  return fitDocument({ head, sections, tail, maxChars, note });
}

function itemMd(item: DriftItem): string {
  const info = CLASS_INFO[item.class];
  const id = item.id === null ? '' : ` (id ${code(item.id)})`;
  const summary = `${code(`${info.symbol} ${item.class}`)} ${code(item.address)}${id}`;
  // Nothing to expand for a resource that is archived, missing or unmanaged: one line says it all.
  if (item.fields.length === 0) return `- ${summary}: ${info.meaning}`;
  const lines = [`# ${info.meaning}`, '# - expected (configuration), + live'];
  for (const f of item.fields) {
    const v = driftFieldView(f, 100);
    if (v.kind === 'inline') lines.push(`- ${f.path}: ${v.before}`, `+ ${f.path}: ${v.after}`);
    else if (v.kind === 'block') lines.push(`  ${f.path}:`, ...v.lines.map((l) => `${l.mark}     ${l.text}`));
  }
  return details(summary, fenced('diff', lines));
}
