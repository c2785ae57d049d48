// Drift as JUnit XML, so a CI system's test view shows each drifted resource as a failed test.
// One testcase per resource (classname menuctl.drift.<type>, name = its address); drift is a
// <failure> whose type is the drift class. Resources the caller checked and found in sync can
// be passed as `checked`, so the report also lists what passed.

import type { Drift, DriftItem } from '../plan/drift-types.js';
import { CLASS_INFO } from './drift-model.js';
import { formatValue } from './plan-values.js';
import { xmlAttr as attr, xmlText as text } from './xml.js';

export interface JunitOptions {
  /** Addresses (with types) that were compared; those without drift become passing testcases. */
  checked?: { type: string; address: string }[];
  /** ISO timestamp for the testsuite; omitted when not given, so output stays deterministic. */
  timestamp?: string;
}

interface Case {
  classname: string;
  name: string;
  failure?: { type: string; message: string; body: string };
}

export function renderDriftJunit(drift: Drift, options: JunitOptions = {}): string {
  const cases = buildCases(drift, options);
  const failures = cases.filter((c) => c.failure).length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="0"`;
  const ts = options.timestamp ? ` timestamp="${attr(options.timestamp)}"` : '';
  const name = attr(drift.environment !== undefined ? `menuctl drift (${drift.environment})` : 'menuctl drift');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${counts}>`,
    `  <testsuite name="${name}" ${counts}${ts}>`,
    ...cases.flatMap(caseXml),
  ];
  if (drift.warnings.length > 0) lines.push(`    <system-out>${text(drift.warnings.map((w) => w.message).join('\n'))}</system-out>`);
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n') + '\n';
}

function buildCases(drift: Drift, options: JunitOptions): Case[] {
  const cases: Case[] = drift.drift.map((item) => ({
    classname: `menuctl.drift.${item.type}`,
    name: item.address,
    failure: { type: item.class, message: `${item.class}: ${CLASS_INFO[item.class].meaning}`, body: failureBody(item) },
  }));
  const drifted = new Set(drift.drift.map((d) => d.address));
  for (const c of options.checked ?? []) {
    if (!drifted.has(c.address)) cases.push({ classname: `menuctl.drift.${c.type}`, name: c.address });
  }
  // A report with no testcase reads as "nothing ran" in most CI views; say that it passed.
  if (cases.length === 0) cases.push({ classname: 'menuctl.drift', name: 'live API matches the configuration' });
  return cases;
}

function failureBody(item: DriftItem): string {
  const lines = [`${item.address}${item.id === null ? '' : ` (id ${item.id})`}: ${CLASS_INFO[item.class].meaning}`];
  for (const f of item.fields) lines.push(`  ${f.path}: expected ${formatValue(f.expected)}, live ${formatValue(f.live)}`);
  return lines.join('\n');
}

function caseXml(c: Case): string[] {
  const open = `    <testcase classname="${attr(c.classname)}" name="${attr(c.name)}"`;
  if (!c.failure) return [`${open}/>`];
  return [
    `${open}>`,
    `      <failure type="${attr(c.failure.type)}" message="${attr(c.failure.message)}">${text(c.failure.body)}</failure>`,
    '    </testcase>',
  ];
}
