// Where a model object came from: its file and its path there. Kept on the object under two
// symbols (not enumerable: copies, JSON and equality never see them), with a `loc` whose line and
// column are worked out when first read, so a clean run (a plan included) computes no position.
//
// Compact on purpose: a big plan holds a model object per resource (docs/architecture.md "Memory
// at scale"). The path is kept as a number (encodePath; its JSON text when unusual) and the file
// beside it, in the object itself, rather than an origin object and a path array.

import type { SourceLoc } from '../model/types.js';
import type { ConfigSource, Segment } from './source.js';

export interface Origin {
  src: ConfigSource;
  path: Segment[];
}

/** Where the path and the file are kept on a model object (not enumerable once sealed). */
export const PATH = Symbol('menuctl.origin');
export const SOURCE = Symbol('menuctl.source');

type WithOrigin = { [PATH]?: number | string; [SOURCE]?: ConfigSource };

/** Locations given by assignment (`model.loc = ...`), which win over the origin's. */
const assigned = new WeakMap<object, SourceLoc>();

function getLoc(this: WithOrigin): SourceLoc | undefined {
  const given = assigned.get(this);
  if (given) return given;
  const src = this[SOURCE];
  return src ? src.lazyLocate(decodePath(this[PATH]!)) : undefined;
}

function setLoc(this: WithOrigin, loc: SourceLoc): void {
  assigned.set(this, loc);
}

/**
 * A path as one number where it has a usual shape, `[key, i]` or `[key, i, key, j]` with keys of
 * a config's lists (an action, a parser, an operator ref, a fixture): not its JSON text, and while the indexes are small (i below 131,072 and j below 32 for the second
 * shape) a small integer V8 keeps in the object's slot, not a heap number. Any other path is its
 * JSON text. Three disjoint ranges, so a code decodes one way only.
 */
const KEYS = ['actions', 'apps', 'parsers', 'operators', 'tests', 'sessions', 'steps', 'sms', 'screens'] as const;
const KEY_CODE = new Map<string, number>(KEYS.map((k, i) => [k, i]));
const K = 16; // key codes below this
const I1 = 2 ** 24; // first index below this
const I2 = 2 ** 16; // second index below this
const TWO = K * I1; // [key, i]: codes below this (2^28)
const S1 = 2 ** 17; // [key, i, key, j] as a small integer: i below this...
const S2 = 2 ** 5; // ...and j below this
const SMALL_END = TWO + K * S1 * K * S2; // 2^28 + 2^30, below 2^31: a small integer
const BIG = 2 ** 31; // [key, i, key, j] with bigger indexes: codes from here

const index = (v: unknown, below: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < below;

export function encodePath(path: readonly Segment[]): number | string {
  const a = KEY_CODE.get(path[0] as string);
  if (a !== undefined && index(path[1], I1)) {
    if (path.length === 2) return a * I1 + path[1];
    const b = KEY_CODE.get(path[2] as string);
    if (path.length === 4 && b !== undefined && index(path[3], I2)) {
      const [i, j] = [path[1], path[3]];
      if (i < S1 && j < S2) return TWO + ((a * S1 + i) * K + b) * S2 + j;
      return BIG + ((a * I1 + i) * K + b) * I2 + j;
    }
  }
  return JSON.stringify(path);
}

export function decodePath(code: number | string): Segment[] {
  if (typeof code === 'string') return JSON.parse(code) as Segment[];
  if (code < TWO) return [KEYS[Math.floor(code / I1)]!, code % I1];
  const [from, i1, i2] = code < SMALL_END ? [TWO, S1, S2] : [BIG, I1, I2];
  const c = code - from;
  const first = Math.floor(c / i2 / K);
  return [KEYS[Math.floor(first / i1)]!, first % i1, KEYS[Math.floor(c / i2) % K]!, c % i2];
}

const hidden = { enumerable: false, writable: false, configurable: false } as const;

/** A model object's origin, written as the last two fields of its literal (`encodePath(path)`, the file). */
export type Sealable = { [PATH]: number | string; [SOURCE]: ConfigSource };

/**
 * Seals the origin of a model object made with its `[PATH]` and `[SOURCE]` in the literal (the
 * ModelBuilder's way): they become hidden, and it gets its lazy `loc`. Given in the literal, they
 * are kept in the object itself, less than when added afterwards (attachOrigin).
 */
export function sealOrigin<T extends Sealable>(model: T): T {
  Object.defineProperty(model, PATH, hidden);
  Object.defineProperty(model, SOURCE, hidden);
  Object.defineProperty(model, 'loc', { get: getLoc, set: setLoc, configurable: true });
  return model;
}

/** Gives a model object its origin and a lazy `loc` (the model types' `loc?: SourceLoc`). */
export function attachOrigin<T extends object>(model: T, origin: Origin): T {
  Object.defineProperty(model, PATH, { value: encodePath(origin.path) });
  Object.defineProperty(model, SOURCE, { value: origin.src });
  Object.defineProperty(model, 'loc', { get: getLoc, set: setLoc, configurable: true });
  return model;
}

export function originOf(model: object): Origin | undefined {
  const m = model as WithOrigin;
  const src = m[SOURCE];
  return src ? { src, path: decodePath(m[PATH]!) } : undefined;
}
