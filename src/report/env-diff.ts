// diff-env reports: text for a person, JSON for a script (src/plan/diff-env.ts builds the value).
import type { EnvDiff, EnvDifference } from '../plan/diff-env.js';
import { formatValue } from './plan-values.js';
import { plural } from '../text/plural.js';
import { stableJson } from '../text/stable-json.js';
import { style } from './style.js';

export function renderEnvDiffJson(diff: EnvDiff): string {
  return stableJson(diff);
}

// As plan and drift show values: a regex reads exactly as written, backslashes not doubled.
const show = (v: unknown): string => formatValue(v ?? null);

function itemLines(d: EnvDifference, diff: EnvDiff): string[] {
  switch (d.class) {
    case 'missing': return [`  ! ${d.address}: not in ${d.in} (live)`];
    case 'archived': return [`  - ${d.address}: archived in ${d.in}`];
    case 'changed': {
      const pad = Math.max(...d.fields.map((f) => f.path.length));
      return [`  ~ ${d.address}`, ...d.fields.map((f) => `      ${`${f.path}:`.padEnd(pad + 1)} ${show(f.a)} in ${diff.a}, ${show(f.b)} in ${diff.b}`)];
    }
  }
}

export function renderEnvDiffText(diff: EnvDiff, options: { color: boolean }): string {
  const st = style(options.color);
  const out: string[] = [];
  for (const d of diff.differences) out.push(...itemLines(d, diff));
  if (diff.differences.length > 0) out.push('');
  if (diff.only_in_config.length > 0) {
    out.push(st.dim(`Not compared (the config limits them to one environment): ${diff.only_in_config.map((o) => `${o.address} (${o.environment})`).join(', ')}`));
  }
  if (diff.not_applied.length > 0) out.push(st.dim(`Not compared (in neither environment yet): ${diff.not_applied.join(', ')}`));
  if (diff.masked_variables.length > 0) out.push(st.dim(`Per-environment variables read as \${NAME}: ${diff.masked_variables.join(', ')}`));
  const head = `${diff.a} and ${diff.b}`;
  out.push(diff.same
    ? st.green(`${head} are the same for the resources the config manages in both (ids and per-environment variables ignored).`)
    : st.bold(`${head} differ: ${plural(diff.differences.length, 'resource')} (ids and per-environment variables ignored).`));
  return `${out.join('\n')}\n`;
}
