// Validates one file's data against schemas/menuctl.strict.schema.json (the single source of the format)
// and turns ajv's errors into one located, actionable Diagnostic per real problem.

import { STEP_KINDS } from '../model/types.js';
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from 'ajv';
import { AJV_OPTIONS as GENERATED_OPTIONS, validateConfig } from '../generated/config-validator.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { addressOfPath } from './addresses.js';
import { schemaMessage } from './schema-messages.js';
import { commentValueAdvice } from './yaml-advice.js';
import type { ConfigSource, Segment } from './source.js';

export const SCHEMA_PATH = fileURLToPath(new URL('../../schemas/menuctl.strict.schema.json', import.meta.url));

/** The options the validator was generated with (scripts/gen-validators.mjs); the meta-schema test uses them. */
export const AJV_OPTIONS = GENERATED_OPTIONS as { allErrors: true; verbose: true; strict: true; strictTypes: false; allowUnionTypes: true };

type ValidateFunction = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Compiled ahead of time (src/generated/config-validator.ts, checked against the schema by a
 * test): ajv's compile was the expensive part of every run. The schema itself is checked against
 * the 2020-12 meta-schema by test/config/schema-meta.test.ts.
 */
function validator(): ValidateFunction {
  return validateConfig as ValidateFunction;
}


function pointerToPath(pointer: string): Segment[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const STEP_PATH = /^\/actions\/\d+\/steps\/\d+/;
const EXPECT_PATH = /^\/actions\/\d+\/tests\/\d+\/expect$/;

function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let cur = root;
  for (const seg of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[String(seg)] : undefined;
  return cur;
}

/** The step kinds named by a step's keys (a valid step has exactly one). */
export function stepKinds(step: unknown): string[] {
  if (typeof step === 'string') return (STEP_KINDS as readonly string[]).includes(step) ? [step] : [];
  if (!step || typeof step !== 'object' || Array.isArray(step)) return [];
  return Object.keys(step).filter((k) => (STEP_KINDS as readonly string[]).includes(k));
}

/**
 * ajv reports every failing oneOf branch; keep only the branch the author meant (the step kind
 * they wrote, or the mapping form of `expect`) and let the step-kind check speak for the rest.
 */
function relevant(errors: ErrorObject[], root: unknown): ErrorObject[] {
  return errors.filter((e) => {
    if (e.keyword === 'oneOf') return false;
    const step = STEP_PATH.exec(e.instancePath);
    if (step) {
      if (e.instancePath !== step[0]) return true; // deeper errors come from the chosen branch only
      const kinds = stepKinds(valueAt(root, pointerToPath(step[0])));
      if (kinds.length !== 1 || typeof valueAt(root, pointerToPath(step[0])) === 'string') return false;
      const required = (e.parentSchema as { required?: string[] } | undefined)?.required;
      return required?.[0] === kinds[0];
    }
    if (EXPECT_PATH.test(e.instancePath)) {
      const v = valueAt(root, pointerToPath(e.instancePath));
      const isMapping = typeof v === 'object' && v !== null && !Array.isArray(v);
      return isMapping === !e.schemaPath.includes('/oneOf/0/');
    }
    return true;
  });
}

/** Steps the schema rejects whose kind is unknown, mixed or mis-typed: one message each. */
function stepDiagnostics(errors: ErrorObject[], root: unknown, src: ConfigSource): Diagnostic[] {
  const paths = new Set<string>();
  for (const e of errors) {
    const m = STEP_PATH.exec(e.instancePath);
    if (m && e.instancePath === m[0]) paths.add(m[0]);
  }
  const out: Diagnostic[] = [];
  for (const p of paths) {
    const path = pointerToPath(p);
    const step = valueAt(root, path);
    const kinds = stepKinds(step);
    if (kinds.length === 1 && typeof step !== 'string') continue; // reported by its branch's errors
    const d = schemaMessage.step(step, kinds);
    if (!d) continue;
    const keyLoc = typeof step === 'object' && step && !Array.isArray(step) && Object.keys(step).length > 0;
    out.push({ severity: 'error', ...d, address: addressOfPath(root, path),
      loc: keyLoc ? src.locate([...path, kinds[1] ?? Object.keys(step)[0]!], { key: true }) : src.locate(path) });
  }
  return out;
}

/** Lists longer than this are validated a slice at a time (see validateAll). */
const SLICE = 500;
const LISTS = ['actions', 'apps'] as const;

function run(data: unknown): ErrorObject[] {
  const validate = validator();
  return validate(data) ? [] : (validate.errors ?? []);
}

/**
 * ajv's generated code appends each failing item's errors with `concat`, copying every error
 * found so far: 100,000 broken actions took minutes. Long lists go through in slices, each in a
 * minimal valid shell, and their error paths are shifted back to the item's real index.
 */
function validateAll(root: unknown): ErrorObject[] {
  if (!root || typeof root !== 'object' || Array.isArray(root)) return run(root);
  const obj = root as Record<string, unknown>;
  const long = LISTS.filter((k) => Array.isArray(obj[k]) && (obj[k] as unknown[]).length > SLICE);
  if (long.length === 0) return run(root);
  const shell: Record<string, unknown> = { ...obj };
  for (const k of long) shell[k] = [];
  const errors = run(shell);
  for (const k of long) {
    const list = obj[k] as unknown[];
    const item = new RegExp(`^/${k}/(\\d+)`);
    for (let offset = 0; offset < list.length; offset += SLICE) {
      for (const e of run({ version: 1, [k]: list.slice(offset, offset + SLICE) })) {
        e.instancePath = e.instancePath.replace(item, (_, i: string) => `/${k}/${Number(i) + offset}`);
        errors.push(e);
      }
    }
  }
  return errors;
}

/** `reported`: JSON pointers of values already reported (a failed `${VAR}`...), whose schema errors would be noise. */
export function validateSchema(root: unknown, src: ConfigSource, reported: ReadonlySet<string> = new Set()): Diagnostic[] {
  const errors = validateAll(root);
  if (errors.length === 0) return [];
  const out = stepDiagnostics(errors, root, src);
  const seen = new Set<string>();
  for (const e of relevant(errors, root)) {
    if (reported.has(e.instancePath)) continue;
    const path = pointerToPath(e.instancePath);
    const m = schemaMessage.fromAjv(e, path, valueAt(root, path));
    const key = `${e.instancePath}|${m.code}|${m.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const locPath = m.keyPath ? [...path, m.keyPath] : path;
    const loc = src.locate(locPath, { key: Boolean(m.keyPath) });
    const last = path[path.length - 1];
    const comment = e.keyword === 'type' && e.data === null && typeof last === 'string'
      ? commentValueAdvice(src.text.split('\n', loc.line)[loc.line - 1] ?? '', last) : undefined;
    out.push({ severity: 'error', code: m.code, message: comment ?? m.message, address: addressOfPath(root, path), loc });
  }
  return out;
}
