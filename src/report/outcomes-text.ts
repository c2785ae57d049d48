// What apply did, for people and CI logs: one line per change as it finishes, then a summary
// that says what failed (with the API's own detail) and what was skipped and why.
// Secrets are never rendered: only the file they were written to and for which apps.

import { kindOf } from '../model/kinds/index.js';
import type { ApplyResult, ChangeOutcome, OutcomeError } from '../apply/types.js';
import type { ChangeOp } from '../plan/types.js';
import { inert } from '../text/inert.js';
import { outcomeReasonText } from './outcome-reason.js';
import { style, type Style } from './style.js';

const PAST: Record<ChangeOp, string> = { create: 'created', update: 'updated', archive: 'archived', restore: 'restored' };

export function renderOutcomeLine(outcome: ChangeOutcome, options: { color: boolean }): string {
  const st = style(options.color);
  const target = `${outcome.op} ${inert(outcome.address)}`;
  switch (outcome.status) {
    case 'applied': {
      const notes: string[] = [];
      if (outcome.id !== null) notes.push(`id ${inert(outcome.id)}`);
      if (outcome.recovered) notes.push('found after a lost response, not created twice');
      // Where an app's secrets went, or that they were lost: never silent.
      if (outcome.reason) notes.push(inert(outcomeReasonText(outcome.reason)));
      return `${st.green('✓')} ${target}${notes.length ? st.dim(` (${notes.join('; ')})`) : ''}`;
    }
    case 'failed':
      return `${st.red('✗')} ${target}: ${st.red(errorText(outcome.error, outcome.address))}`;
    case 'skipped':
      return `${st.dim('-')} skipped ${target}${outcome.reason ? ` (${inert(outcomeReasonText(outcome.reason))})` : ''}`;
  }
}

/**
 * The API's own words first (code, detail), then the HTTP status, then menuctl's message. The
 * server's words are inert (inert.ts): a code or detail carrying a terminal escape or a line
 * break must not draw on the terminal or fake a `✓ create` line of its own. The line names the
 * change's address already: a message that starts with it (a lost create's, apply/create-once.ts,
 * which also stands alone in JSON and in other errors) is shown without it.
 */
function errorText(error: OutcomeError | undefined, address: string): string {
  if (!error) return 'failed (no detail)';
  const own = `${address}: `;
  if (error.message.startsWith(own)) error = { ...error, message: error.message.slice(own.length) };
  const parts: string[] = [];
  if (error.status !== undefined) parts.push(`HTTP ${error.status}`);
  if (error.code) parts.push(inert(error.code));
  const head = parts.length ? `${parts.join(' ')}: ` : '';
  const detail = error.detail && error.detail !== error.message ? `${error.detail} (${error.message})` : error.message;
  return `${head}${inert(detail)}`;
}

export function renderApplySummary(result: ApplyResult, options: { color: boolean }): string {
  const st = style(options.color);
  const by = (s: ChangeOutcome['status']) => result.outcomes.filter((o) => o.status === s);
  const out: string[] = [];
  const failed = by('failed'), skipped = by('skipped');
  if (failed.length > 0) {
    out.push(st.red(`Failed (${failed.length}):`));
    for (const o of failed) out.push(`  ${st.red('✗')} ${o.op} ${inert(o.address)}: ${errorText(o.error, o.address)}`);
  }
  if (skipped.length > 0) {
    out.push(st.yellow(`Skipped (${skipped.length}):`));
    for (const o of skipped) out.push(`  - ${o.op} ${inert(o.address)}${o.reason ? `: ${inert(outcomeReasonText(o.reason))}` : ''}`);
  }
  if (result.interrupted) {
    out.push(st.yellow('Interrupted: no new change was started after the signal; changes in flight were given a moment to be answered, ' +
      'then cancelled. What the API confirmed is recorded; a cancelled create may or may not exist, and the next plan looks it up.'));
    out.push('Run `menuctl plan` to see what is left, then `menuctl apply` to finish.');
  }
  if (result.secrets && result.secrets.addresses.length > 0) {
    const n = result.secrets.addresses.length;
    out.push(`Secrets of ${n} created app${n === 1 ? '' : 's'} written to ${inert(result.secrets.file)} (${result.secrets.addresses.map(inert).join(', ')}).`);
  }
  const unkept = appsWithoutSecrets(result);
  if (unkept.length > 0) {
    const n = unkept.length;
    out.push(st.yellow(`Secrets NOT kept for ${n} created app${n === 1 ? '' : 's'} (read or rotate the token in the API):`));
    for (const o of unkept) out.push(`  - ${inert(o.address)}${o.reason ? `: ${inert(outcomeReasonText(o.reason))}` : ''}`);
  }
  out.push(summaryCounts(result, st));
  return out.join('\n') + '\n';
}

/** Created apps whose token went nowhere: not captured after a lost answer, or --discard-secrets. */
function appsWithoutSecrets(result: ApplyResult): ChangeOutcome[] {
  const written = new Set(result.secrets?.addresses ?? []);
  return result.outcomes.filter((o) => kindOf(o.type).hasSecrets && o.op === 'create' && o.status === 'applied' && !written.has(o.address) && o.reason?.code !== 'secrets-with-api');
}

function summaryCounts(result: ApplyResult, st: Style): string {
  const s = result.summary;
  const applied = result.outcomes.filter((o) => o.status === 'applied');
  const detail = (['create', 'update', 'archive', 'restore'] as const)
    .map((op) => [op, applied.filter((o) => o.op === op).length] as const)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${n} ${PAST[op]}`);
  const line = `Apply ${result.stopped !== undefined ? 'stopped' : result.interrupted ? 'interrupted' : s.failed > 0 ? 'finished with failures' : 'complete'}: ` +
    `${s.applied} applied${detail.length ? ` (${detail.join(', ')})` : ''}, ${s.failed} failed, ${s.skipped} skipped.`;
  return s.failed > 0 || result.interrupted || result.stopped !== undefined ? st.red(line) : st.green(line);
}
