// Reading a saved plan (`plan --out FILE`) for `apply --plan FILE`, with errors that say
// which file, what is wrong with it and what to do. The shape check is structural: enough
// that apply never acts on something that is not a plan.

import { readFile } from 'node:fs/promises';
import type { Plan } from '../plan/types.js';

const OPS = new Set(['create', 'update', 'archive', 'restore']);
const TYPES = new Set(['action', 'parser', 'app']);
const REMAKE = 'make a new one with `menuctl plan --out FILE`';

export async function readPlanFile(file: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`plan file ${file} not found; ${REMAKE}`);
    throw new Error(`cannot read plan file ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`plan file ${file} is not valid JSON (${(err as Error).message}); ${REMAKE}`);
  }
  const problem = shapeProblem(doc);
  if (problem) throw new Error(`plan file ${file}: ${problem}; ${REMAKE}`);
  return doc as Plan;
}

function shapeProblem(doc: unknown): string | null {
  if (!isObject(doc)) return 'not a menuctl plan (expected a JSON object)';
  if (doc.format_version !== 1) {
    return doc.format_version === undefined
      ? 'not a menuctl plan (no format_version)'
      : `format_version ${JSON.stringify(doc.format_version)} is not supported (this menuctl reads format_version 1)`;
  }
  if (typeof doc.config_digest !== 'string') return 'config_digest is missing';
  if (doc.organization_id !== null && typeof doc.organization_id !== 'number') return 'organization_id must be a number or null';
  if (!Array.isArray(doc.changes)) return 'changes must be a list';
  for (const [i, c] of doc.changes.entries()) {
    const p = changeProblem(c);
    if (p) return `changes[${i}]: ${p}`;
  }
  return null;
}

function changeProblem(c: unknown): string | null {
  if (!isObject(c)) return 'not an object';
  if (typeof c.op !== 'string' || !OPS.has(c.op)) return `unknown op ${JSON.stringify(c.op)}`;
  if (typeof c.type !== 'string' || !TYPES.has(c.type)) return `unknown type ${JSON.stringify(c.type)}`;
  if (typeof c.address !== 'string') return 'address is missing';
  if (c.op === 'create' ? c.id !== null : typeof c.id !== 'string') {
    return c.op === 'create' ? 'a create has id null' : `${c.address}: id is missing`;
  }
  if (!Array.isArray(c.fields)) return `${c.address}: fields must be a list`;
  if (c.op !== 'archive' && !isObject(c.desired)) return `${c.address}: desired is missing`;
  if (c.op !== 'archive' && c.type === 'parser' && typeof c.parent !== 'string') return `${c.address}: parent is missing`;
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
