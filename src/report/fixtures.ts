// Pure renderers of `menuctl test` results: a test-runner style text report, JSON and JUnit XML.
// The last line of the text report is exactly `N passed, N failed` (CI tooling reads it);
// fixtures that could not be evaluated are counted as failed.
import type { FixtureResult } from '../classify/run-fixtures.js';
import { formatLoc } from '../model/diagnostic.js';
import { style } from './style.js';
import { xmlAttr, xmlText } from './xml.js';

export interface FixtureTotals { passed: number; failed: number; errors: number }

export function totals(results: readonly FixtureResult[]): FixtureTotals {
  const errors = results.filter((r) => r.status === 'error').length;
  const passed = results.filter((r) => r.status === 'passed').length;
  return { passed, failed: results.length - passed, errors };
}

/** The message on one line, shortened: fixtures are often long, multi-line SMS texts. */
function shortMessage(text: string, max = 60): string {
  const one = JSON.stringify(text).slice(1, -1);
  return one.length > max ? `${one.slice(0, max - 3)}...` : one;
}

export function renderFixturesText(results: readonly FixtureResult[], options: { color?: boolean } = {}): string {
  const s = style(options.color ?? false);
  const lines: string[] = [];
  let current: string | null = null;
  for (const r of results) {
    if (r.address !== current) {
      if (current !== null) lines.push('');
      lines.push(s.bold(r.address));
      current = r.address;
    }
    const mark = r.status === 'passed' ? s.green('✓') : r.status === 'failed' ? s.red('✗') : s.red('!');
    const where = formatLoc(r.fixture.loc);
    const via = r.fixture.channel === 'sms' ? ` [sms from ${r.fixture.sender ?? '?'}]` : '';
    lines.push(`  ${mark} "${shortMessage(r.fixture.message)}"${via}${where ? s.dim(`  (${where})`) : ''}`);
    for (const d of r.diff) {
      lines.push(`      ${s.red(`- ${d.field}: ${d.expected}`)}`);
      lines.push(`      ${s.green(`+ ${d.field}: ${d.actual}`)}`);
    }
    for (const reason of r.reasons) lines.push(`      ${r.status === 'error' ? s.red('error') : s.red('failed')}: ${reason}`);
    for (const w of r.warnings) lines.push(`      ${s.yellow('warning')}: ${w}`);
  }
  const t = totals(results);
  if (results.length === 0) lines.push('no fixtures found (add `tests:` to an action)');
  lines.push('');
  if (t.errors > 0) lines.push(`${t.errors} could not be evaluated (counted as failed)`);
  lines.push(`${t.passed} passed, ${t.failed} failed`);
  return `${lines.join('\n')}\n`;
}

export function renderFixturesJson(results: readonly FixtureResult[]): string {
  const t = totals(results);
  const body = {
    format_version: 1,
    passed: t.passed,
    failed: t.failed,
    errors: t.errors,
    results: results.map((r) => ({
      action: r.action,
      address: r.address,
      location: r.fixture.loc ?? null,
      message: r.fixture.message,
      channel: r.fixture.channel,
      sender: r.fixture.sender ?? null,
      expect: r.fixture.expect,
      status: r.status,
      actual: r.winner ? { category: r.winner.category, status: r.winner.status, variables: r.winner.variables } : null,
      matches: r.matches.map((m) => m.category),
      unevaluable: r.unevaluable.map((u) => ({ category: u.category, reason: u.reason })),
      diff: r.diff,
      reasons: r.reasons,
      warnings: r.warnings,
    })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * The config could not be loaded, so no fixture ran: one errored testcase carrying the problems,
 * so a CI system that collects the report shows why instead of an empty or missing file.
 */
export function renderConfigErrorJunit(problems: string, summary: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="menuctl test" tests="1" failures="0" errors="1">',
    '  <testsuite name="config" tests="1" failures="0" errors="1">',
    '    <testcase name="load config" classname="config">',
    `      <error message="${xmlAttr(summary)}">${xmlText(problems)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function renderFixturesJunit(results: readonly FixtureResult[]): string {
  const t = totals(results);
  const byAction = new Map<string, FixtureResult[]>();
  for (const r of results) byAction.set(r.address, [...(byAction.get(r.address) ?? []), r]);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="menuctl test" tests="${results.length}" failures="${t.failed - t.errors}" errors="${t.errors}">`);
  for (const [address, list] of byAction) {
    const lt = totals(list);
    out.push(`  <testsuite name="${xmlAttr(address)}" tests="${list.length}" failures="${lt.failed - lt.errors}" errors="${lt.errors}">`);
    for (const r of list) out.push(...testcase(r));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function testcase(r: FixtureResult): string[] {
  const loc = r.fixture.loc;
  const attrs = [
    `name="${xmlAttr(shortMessage(r.fixture.message, 100))}"`,
    `classname="${xmlAttr(r.address)}"`,
    ...(loc ? [`file="${xmlAttr(loc.file)}"`, `line="${loc.line}"`] : []),
  ].join(' ');
  const detail = [
    ...r.diff.map((d) => `- ${d.field}: ${d.expected}\n+ ${d.field}: ${d.actual}`),
    ...r.reasons,
    ...r.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
  if (r.status === 'passed') {
    return r.warnings.length > 0
      ? [`    <testcase ${attrs}>`, `      <system-out>${xmlText(detail)}</system-out>`, '    </testcase>']
      : [`    <testcase ${attrs}/>`];
  }
  const tag = r.status === 'error' ? 'error' : 'failure';
  const summary = r.status === 'error' ? r.reasons[0] ?? 'error' : r.diff.map((d) => d.field).join(', ') || r.reasons[0] || 'failed';
  return [
    `    <testcase ${attrs}>`,
    `      <${tag} message="${xmlAttr(summary)}">${xmlText(detail)}</${tag}>`,
    '    </testcase>',
  ];
}
