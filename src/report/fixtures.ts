// Pure renderers of `menuctl test` results (parser fixtures and whole sessions): a test-runner
// style text report, JSON and JUnit XML. The last line of the text report is exactly
// `N passed, N failed` (CI tooling reads it); results that could not be evaluated count as failed.
import type { FixtureResult } from '../classify/run-fixtures.js';
import { formatLoc } from '../model/diagnostic.js';
import type { SourceLoc } from '../model/types.js';
import type { Coverage } from '../sessions/coverage.js';
import type { SessionResult } from '../sessions/run-sessions.js';
import { style, type Style } from './style.js';
import { renderTranscript } from './transcript.js';
import { xmlAttr, xmlText } from './xml.js';

export interface FixtureTotals { passed: number; failed: number; errors: number }

/** Everything `menuctl test` found, in config order. */
export interface TestRun {
  fixtures: readonly FixtureResult[];
  sessions: readonly SessionResult[];
  coverage: Coverage;
  /** --require-fixtures: parsers without a fixture or session fail the run. */
  requireFixtures: boolean;
}

type Entry = { kind: 'fixture'; r: FixtureResult } | { kind: 'session'; r: SessionResult };

export function totals(results: readonly { status: string }[]): FixtureTotals {
  const errors = results.filter((r) => r.status === 'error').length;
  const passed = results.filter((r) => r.status === 'passed').length;
  return { passed, failed: results.length - passed, errors };
}

export function runTotals(run: TestRun): FixtureTotals {
  return totals([...run.fixtures, ...run.sessions]);
}

/** Whether the run fails: a failed result, or an unexercised parser under --require-fixtures. */
export function runFails(run: TestRun): boolean {
  return runTotals(run).failed > 0 || (run.requireFixtures && run.coverage.uncovered.length > 0);
}

/** Fixtures, then sessions, action by action in the order actions were first seen. */
function entries(run: TestRun): Entry[] {
  const order = new Map<string, number>();
  for (const r of [...run.fixtures, ...run.sessions]) if (!order.has(r.address)) order.set(r.address, order.size);
  const all: Entry[] = [
    ...run.fixtures.map((r) => ({ kind: 'fixture' as const, r })),
    ...run.sessions.map((r) => ({ kind: 'session' as const, r })),
  ];
  // Array.prototype.sort is stable: within an action, fixtures stay before sessions, each in order.
  return all.sort((a, b) => order.get(a.r.address)! - order.get(b.r.address)!);
}

/** The message on one line, shortened: fixtures are often long, multi-line SMS texts. */
function shortMessage(text: string, max = 60): string {
  const one = JSON.stringify(text).slice(1, -1);
  return one.length > max ? `${one.slice(0, max - 3)}...` : one;
}

function mark(s: Style, status: string): string {
  return status === 'passed' ? s.green('✓') : status === 'failed' ? s.red('✗') : s.red('!');
}

export interface TextOptions {
  color?: boolean;
  /** true: every session's transcript; a string: only sessions whose name contains it. */
  transcript?: boolean | string;
  /** Only what failed, errored or warned, and the totals (`menuctl test --quiet`). */
  quiet?: boolean;
}

export function renderFixturesText(run: TestRun, options: TextOptions = {}): string {
  const s = style(options.color ?? false);
  const lines: string[] = [];
  let current: string | null = null;
  for (const e of entries(run)) {
    // --quiet: what needs attention only (a failure, an error, a warning), then the totals.
    if (options.quiet && e.r.status === 'passed' && e.r.warnings.length === 0) continue;
    if (e.r.address !== current) {
      if (current !== null) lines.push('');
      lines.push(s.bold(e.r.address));
      current = e.r.address;
    }
    lines.push(...(e.kind === 'fixture' ? fixtureText(e.r, s) : sessionText(e.r, s, wantsTranscript(e.r, options.transcript))));
  }
  const t = runTotals(run);
  if (run.fixtures.length + run.sessions.length === 0) {
    lines.push('no fixtures or sessions found: add `tests:` or `sessions:` to an action (docs/sessions.md)');
  }
  // Coverage decides the exit under --require-fixtures, so quiet keeps it there.
  if (!options.quiet || run.requireFixtures) lines.push('', ...coverageText(run, s));
  else if (lines.length > 0) lines.push('');
  if (t.errors > 0) lines.push(`${t.errors} could not be evaluated (counted as failed)`);
  lines.push(`${t.passed} passed, ${t.failed} failed`);
  return `${lines.join('\n')}\n`;
}

function detailText(r: FixtureResult | SessionResult, s: Style): string[] {
  const lines: string[] = [];
  for (const d of r.diff) {
    lines.push(`      ${s.red(`- ${d.field}: ${d.expected}`)}`);
    lines.push(`      ${s.green(`+ ${d.field}: ${d.actual}`)}`);
  }
  for (const reason of r.reasons) lines.push(`      ${r.status === 'error' ? s.red('error') : s.red('failed')}: ${reason}`);
  for (const h of r.hints) lines.push(`      ${s.cyan('hint')}: ${h}`);
  for (const w of r.warnings) lines.push(`      ${s.yellow('warning')}: ${w}`);
  return lines;
}

// A location is shown only where there is something to act on (a failure, an error, a warning):
// reading the first one re-parses the config for positions (config/origin.ts), which on a clean
// run of 5,000 fixtures doubled CPU and memory to print lines nobody needs to open.
function whereText(r: FixtureResult | SessionResult, loc: () => SourceLoc | undefined, s: Style): string {
  if (r.status === 'passed' && r.warnings.length === 0) return '';
  const where = formatLoc(loc());
  return where ? s.dim(`  (${where})`) : '';
}

function fixtureText(r: FixtureResult, s: Style): string[] {
  const via = r.fixture.channel === 'sms' ? ` [sms from ${r.fixture.sender ?? '?'}]` : '';
  return [`  ${mark(s, r.status)} "${shortMessage(r.fixture.message)}"${via}${whereText(r, () => r.fixture.loc, s)}`, ...detailText(r, s)];
}

function wantsTranscript(r: SessionResult, option: boolean | string | undefined): boolean {
  return typeof option === 'string' ? r.session.name.includes(option) : option === true;
}

function sessionText(r: SessionResult, s: Style, transcript: boolean): string[] {
  const lines = [`  ${mark(s, r.status)} session "${r.session.name}"${whereText(r, () => r.session.loc, s)}`];
  const failedStep = r.walk.steps.find((x) => !x.ok);
  if (failedStep?.loc) lines.push(`      ${s.dim(`screen ${failedStep.number} is at ${formatLoc(failedStep.loc)}`)}`);
  lines.push(...detailText(r, s));
  if (transcript) lines.push(...renderTranscript(r, { color: s.enabled, indent: '      ' }));
  return lines;
}

const LISTED = 10;

function coverageText(run: TestRun, s: Style): string[] {
  const c = run.coverage;
  if (c.parsers === 0) return [];
  const head = `coverage: ${c.covered} of ${c.parsers} parsers exercised by a fixture or session`;
  if (c.uncovered.length === 0) return [head];
  // Located only when --require-fixtures makes them failures (see whereText): the address names them.
  const located = (u: (typeof c.uncovered)[number]) => (run.requireFixtures && u.loc ? s.dim(`  (${formatLoc(u.loc)})`) : '');
  const shown = c.uncovered.slice(0, LISTED).map((u) => `  ${u.address}${located(u)}`);
  const more = c.uncovered.length > LISTED ? [`  ... and ${c.uncovered.length - LISTED} more`] : [];
  const verdict = run.requireFixtures
    ? s.red(`--require-fixtures: ${c.uncovered.length} parser(s) have no fixture or session`)
    : `${c.uncovered.length} without one (add a fixture under \`tests:\`; \`--require-fixtures\` fails the run on this):`;
  return [head, verdict, ...shown, ...more];
}

export function renderFixturesJson(run: TestRun): string {
  const t = runTotals(run);
  const body = {
    format_version: 1,
    passed: t.passed,
    failed: t.failed,
    errors: t.errors,
    coverage: {
      parsers: run.coverage.parsers,
      covered: run.coverage.covered,
      uncovered: run.coverage.uncovered.map((u) => u.address),
      required: run.requireFixtures,
    },
    results: entries(run).map((e) => (e.kind === 'fixture' ? fixtureJson(e.r) : sessionJson(e.r))),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

const actualJson = (r: FixtureResult | SessionResult) =>
  r.winner ? { category: r.winner.category, status: r.winner.status, variables: r.winner.variables } : null;

function fixtureJson(r: FixtureResult): object {
  return {
    kind: 'fixture',
    action: r.action,
    address: r.address,
    location: r.fixture.loc ?? null,
    message: r.fixture.message,
    channel: r.fixture.channel,
    sender: r.fixture.sender ?? null,
    expect: r.fixture.expect,
    status: r.status,
    actual: actualJson(r),
    matches: r.matches.map((m) => m.category),
    unevaluable: r.unevaluable.map((u) => ({ category: u.category, reason: u.reason })),
    diff: r.diff,
    reasons: r.reasons,
    hints: r.hints,
    warnings: r.warnings,
  };
}

function sessionJson(r: SessionResult): object {
  return {
    kind: 'session',
    action: r.action,
    address: r.address,
    session: r.session.name,
    location: r.session.loc ?? null,
    dial: r.dial,
    expect: r.session.expect,
    status: r.status,
    actual: actualJson(r),
    steps: r.walk.steps.map((x) => ({ screen: x.screen, response: x.response, ok: x.ok, problem: x.problem, location: x.loc ?? null })),
    messages: r.messages.map((m) => ({ channel: m.channel, sender: m.sender ?? null, text: m.text, matched: m.winner?.category ?? null })),
    diff: r.diff,
    reasons: r.reasons,
    hints: r.hints,
    warnings: r.warnings,
  };
}

/**
 * The config could not be loaded, so nothing ran: one errored testcase carrying the problems,
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

interface Case {
  address: string;
  status: string;
  attrs: string;
  summary: string;
  detail: string;
  /** Shown even when the case passes (a session's transcript). */
  out: string;
}

export function renderFixturesJunit(run: TestRun): string {
  const cases = [...entries(run).map(junitCase), ...coverageCases(run)];
  const t = totals(cases);
  const byAddress = new Map<string, Case[]>();
  for (const c of cases) byAddress.set(c.address, [...(byAddress.get(c.address) ?? []), c]);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="menuctl test" tests="${cases.length}" failures="${t.failed - t.errors}" errors="${t.errors}">`);
  for (const [address, list] of byAddress) {
    const lt = totals(list);
    out.push(`  <testsuite name="${xmlAttr(address)}" tests="${list.length}" failures="${lt.failed - lt.errors}" errors="${lt.errors}">`);
    for (const c of list) out.push(...testcase(c));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function junitCase(e: Entry): Case {
  const r = e.r;
  const loc = e.kind === 'fixture' ? e.r.fixture.loc : e.r.session.loc;
  const name = e.kind === 'fixture' ? shortMessage(e.r.fixture.message, 100) : `session: ${e.r.session.name}`;
  const attrs = [
    `name="${xmlAttr(name)}"`,
    `classname="${xmlAttr(r.address)}"`,
    ...(loc ? [`file="${xmlAttr(loc.file)}"`, `line="${loc.line}"`] : []),
  ].join(' ');
  const detail = [
    ...r.diff.map((d) => `- ${d.field}: ${d.expected}\n+ ${d.field}: ${d.actual}`),
    ...r.reasons,
    ...r.hints.map((h) => `hint: ${h}`),
    ...r.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
  const summary = r.status === 'error' ? r.reasons[0] ?? 'error' : r.diff.map((d) => d.field).join(', ') || r.reasons[0] || 'failed';
  // The transcript ends with the outcome when messages were classified; a session whose walk
  // failed has none, and its failure says why.
  const out = e.kind === 'session'
    ? renderTranscript(e.r).join('\n')
    : r.warnings.map((w) => `warning: ${w}`).join('\n');
  return { address: r.address, status: r.status, attrs, summary, detail, out };
}

/** Under --require-fixtures, each unexercised parser is a failing testcase of its action. */
function coverageCases(run: TestRun): Case[] {
  if (!run.requireFixtures) return [];
  return run.coverage.uncovered.map((u) => ({
    address: u.action,
    status: 'failed',
    attrs: [`name="${xmlAttr(`coverage: ${u.address}`)}"`, `classname="${xmlAttr(u.address)}"`, ...(u.loc ? [`file="${xmlAttr(u.loc.file)}"`, `line="${u.loc.line}"`] : [])].join(' '),
    summary: 'no fixture or session exercises this parser (--require-fixtures)',
    detail: 'Add a fixture under `tests:` whose expect names this category, or a session whose outcome it gives.',
    out: '',
  }));
}

function testcase(c: Case): string[] {
  if (c.status === 'passed') {
    return c.out
      ? [`    <testcase ${c.attrs}>`, `      <system-out>${xmlText(c.out)}</system-out>`, '    </testcase>']
      : [`    <testcase ${c.attrs}/>`];
  }
  const tag = c.status === 'error' ? 'error' : 'failure';
  return [
    `    <testcase ${c.attrs}>`,
    `      <${tag} message="${xmlAttr(c.summary)}">${xmlText(c.detail)}</${tag}>`,
    ...(c.out ? [`      <system-out>${xmlText(c.out)}</system-out>`] : []),
    '    </testcase>',
  ];
}
