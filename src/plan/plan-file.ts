// The saved plan file, both ways: planJsonChunks writes what `plan --out FILE` (and
// `plan --format json`) prints, parsePlan reads it back for `apply --plan FILE`. The format is
// schemas/plan.schema.json, validated by the validator scripts/gen-validators.mjs generates from
// it; what a schema cannot say (the summary adds up, an address names its desired resource, one
// change per live resource) is checked here. Every key written is named here, so nothing
// reaches a plan file because some caller put it into a Plan (a token, a password).

import type { ErrorObject, ValidateFunction } from 'ajv';
import { validatePlan as generated } from '../generated/plan-validator.js';
import { parseAddress } from '../model/address.js';
import { diagnosticJson, warning, type Warning } from '../model/diagnostic.js';
import { kindOf, parentOf } from '../model/kinds/index.js';
import { elementwise, stableJsonChunks } from '../text/stable-json.js';
import { reasonText } from './reasons.js';
import type { Change, Plan, PlanSafety } from './types.js';

const validatePlan = generated as ValidateFunction;

/** A plan file that cannot be carried out; `problems` each name where in the file. */
export class PlanFileError extends Error {
  /** `syntax`: the one problem is that the text is not JSON ("is not valid JSON (...)"). */
  constructor(readonly problems: string[], readonly syntax = false) {
    super(problems.join('; '));
    this.name = 'PlanFileError';
  }
}

/** The plan file's text as one string: for a plan that fits in one (see planJsonChunks). */
export function serializePlan(plan: Plan): string {
  return [...planJsonChunks(plan)].join('');
}

/**
 * The plan file's text in pieces of whole lines, exactly serializePlan's bytes: what `plan --out`
 * and `plan --format json` write as they go. A big plan's JSON is longer than a JavaScript string
 * can be ("Invalid string length"), so the text is never one.
 */
export function planJsonChunks(plan: Plan): Generator<string> {
  return stableJsonChunks(planDocument(plan));
}

/**
 * The plan file's document, key by key in the order written; its lists are written element by
 * element (elementwise), each element made when it is written.
 */
export function planDocument(plan: Plan): Record<string, unknown> {
  return {
    format_version: plan.format_version,
    changes: elementwise(mapped(plan.changes, serializeChange)),
    summary: {
      create: plan.summary.create,
      update: plan.summary.update,
      archive: plan.summary.archive,
      restore: plan.summary.restore,
    },
    organization_id: plan.organization_id,
    ...(plan.environment !== undefined ? { environment: plan.environment } : {}),
    config_digest: plan.config_digest,
    targets: plan.targets,
    prune: plan.prune,
    ...(plan.safety ? { safety: safetyJson(plan.safety) } : {}),
    unmanaged: elementwise(mapped(plan.unmanaged, (u) => ({ type: u.type, address: u.address, id: u.id }))),
    warnings: elementwise(mapped(plan.warnings, (w) => w.message)),
    // The same warnings with their codes, as `validate --format json` lists diagnostics; only when there are any.
    ...(plan.warnings.length > 0 ? { diagnostics: elementwise(mapped(plan.warnings, diagnosticJson)) } : {}),
  };
}

/** `list` mapped by `f` as it is iterated, as many times as it is. */
function mapped<T, U>(list: readonly T[], f: (x: T) => U): Iterable<U> {
  return { *[Symbol.iterator]() { for (const x of list) yield f(x); } };
}

/** Parses and checks a plan file's text; throws PlanFileError listing every problem found. */
export function parsePlan(text: string): Plan {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw planSyntaxError(err as Error);
  }
  return planOfDocument(doc);
}

/** A plan file whose text is not JSON, as parsePlan reports it: `err` is what the JSON parser threw. */
export function planSyntaxError(err: Error): PlanFileError {
  return new PlanFileError([`is not valid JSON (${err.message})`], true);
}

/**
 * Checks a plan file's document (its text already parsed, as parsePlan does, or in pieces for a
 * file longer than a string can hold); throws PlanFileError listing every problem found.
 */
export function planOfDocument(doc: unknown): Plan {
  const version = versionProblem(doc);
  if (version) throw new PlanFileError([version]);
  if (!validatePlan(doc)) throw new PlanFileError(schemaProblems(doc as Plan, validatePlan.errors ?? []));
  const file = doc as PlanFile;
  const problems = [...consistencyProblems(file), ...warningProblems(file)];
  if (problems.length > 0) throw new PlanFileError(problems);
  // `reason` only words `reasons` (checked above): the codes are the data. So with `diagnostics`.
  for (const c of file.changes) delete (c as { reason?: string }).reason;
  const { diagnostics, warnings, ...rest } = file;
  return { ...rest, warnings: diagnostics ?? warnings.map((m) => warning(SAVED_WARNING, m)) };
}

/** A plan as its file holds it: warnings as words, and as diagnostics when there are any. */
type PlanFile = Omit<Plan, 'warnings'> & { warnings: string[]; diagnostics?: Warning[] };

/** The code of a warning read from a plan file written without `diagnostics`. */
const SAVED_WARNING = 'plan.warning';

/** `warnings` words `diagnostics`, as `reason` words `reasons`: a file whose two say different things is refused. */
function warningProblems(file: PlanFile): string[] {
  if (file.diagnostics === undefined) return [];
  const words = file.diagnostics.map((d) => d.message);
  return JSON.stringify(words) === JSON.stringify(file.warnings)
    ? []
    : ['warnings are not the messages of diagnostics; write the plan again with `menuctl plan --out FILE`'];
}

/** One change as the plan file holds it (also what against-config.ts compares). */
export function serializeChange(change: Change): Record<string, unknown> {
  const out: Record<string, unknown> = {
    op: change.op,
    type: change.type,
    address: change.address,
    id: change.id,
    fields: change.fields.map((f) => ({ path: f.path, before: f.before ?? null, after: f.after ?? null })),
  };
  // The codes drive nothing; `reason` words them for a person reading the file.
  const reason = reasonText(change.reasons);
  if (reason !== undefined) out.reason = reason;
  if (change.reasons) out.reasons = change.reasons.map((r) => ({ ...r }));
  if ('forced' in change && change.forced) out.forced = true;
  out.fingerprint = change.fingerprint;
  if ('parent' in change && change.parent !== undefined) out.parent = change.parent;
  if ('action_id' in change && change.action_id !== undefined) out.action_id = change.action_id;
  if (change.op !== 'archive') out.desired = kindOf(change.type).planJson(change.desired);
  return out;
}

function safetyJson(s: PlanSafety): PlanSafety {
  return {
    archives: s.archives,
    managed: s.managed,
    percent: s.percent,
    max_archive: s.max_archive,
    max_archive_percent: s.max_archive_percent,
    exceeded: s.exceeded,
    force: s.force,
    refusal: s.refusal,
    protected: s.protected.map((p) => ({ address: p.address, id: p.id, protected_by: p.protected_by })),
  };
}

function versionProblem(doc: unknown): string | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'not a menuctl plan (expected a JSON object)';
  const version = (doc as { format_version?: unknown }).format_version;
  if (version === 1) return null;
  return version === undefined
    ? 'not a menuctl plan (no format_version)'
    : `format_version ${JSON.stringify(version)} is not supported (this menuctl reads format_version 1)`;
}

const HINTS: Record<string, string> = {
  fingerprint: 'every update, restore and archive carries the fingerprint of the live resource it was planned against',
  id: 'a create has id null; every other change names its live resource by id',
};

/** One line per schema error: `changes[3].desired.regex must be string (action["A"].parser["p"])`. */
function schemaProblems(doc: Plan, errors: ErrorObject[]): string[] {
  const lines = new Set<string>();
  // `if` errors only repeat that a `then` failed; the `then` error itself says what.
  for (const e of errors.filter((x) => x.keyword !== 'if')) {
    const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at = segments.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '');
    if (e.keyword === 'additionalProperties') at += `${at ? '.' : ''}${(e.params as { additionalProperty: string }).additionalProperty}`;
    const what = e.keyword === 'additionalProperties' ? 'is not part of a plan file'
      : e.keyword === 'false schema' ? 'is not allowed here'
      : e.keyword === 'enum' ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
      : e.keyword === 'const' ? `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`
      : e.keyword === 'required' ? `needs ${JSON.stringify((e.params as { missingProperty: string }).missingProperty)}`
      : e.message ?? 'is not valid';
    const change = segments[0] === 'changes' ? doc.changes?.[Number(segments[1])] : undefined;
    const address = change && typeof change.address === 'string' ? ` (${change.address})` : '';
    const hint = segments.length === 3 && segments[0] === 'changes' ? HINTS[segments[2]!] : undefined;
    lines.add(`${at || 'the plan'} ${what}${address}${hint ? `: ${hint}` : ''}`);
  }
  return [...lines];
}

/** What the schema cannot say; each problem names the change. */
function consistencyProblems(plan: Pick<Plan, 'changes' | 'summary'>): string[] {
  const problems: string[] = [];
  const counted = { create: 0, update: 0, archive: 0, restore: 0 };
  const seen = new Map<string, number>();
  plan.changes.forEach((c, i) => {
    counted[c.op]++;
    const at = `changes[${i}] (${c.address})`;
    const words = (c as { reason?: string }).reason;
    if (words !== reasonText(c.reasons)) problems.push(`${at}: reason ${JSON.stringify(words ?? null)} is not what its reasons say (${JSON.stringify(reasonText(c.reasons) ?? null)})`);
    const wrong = addressProblem(c);
    if (wrong) problems.push(`${at}: ${wrong}`);
    if (c.id !== null) {
      const key = `${c.type}:${c.id}`;
      const first = seen.get(key);
      if (first !== undefined) problems.push(`${at}: changes[${first}] already changes ${c.type} id ${c.id}; a plan changes each live resource once`);
      else seen.set(key, i);
    }
  });
  for (const op of ['create', 'update', 'archive', 'restore'] as const) {
    if (plan.summary[op] !== counted[op]) problems.push(`summary.${op} is ${plan.summary[op]} but the plan lists ${counted[op]} ${op} change(s)`);
  }
  return problems;
}

/** A change's address must be the address of what it sends (its desired identity) and of its kind. */
function addressProblem(c: Change): string | null {
  const parsed = parseAddress(c.address);
  if (!parsed || parsed.type !== c.type) return `the address is not a ${c.type} address`;
  const kind = kindOf(c.type);
  const parent = parentOf(c);
  if (kind.ownedBy !== undefined && !c.address.startsWith(`${parent}.${c.type}[`)) return `the address is not under its parent ${parent}`;
  if (c.op === 'archive') return null;
  const expected = kind.address(c.desired, parent);
  return expected === c.address ? null : `the address does not match the desired values, which are those of ${expected}`;
}
