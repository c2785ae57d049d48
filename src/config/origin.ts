// Where a model object came from: its file and its path there. Kept on the object under two
// symbols (not enumerable: copies, JSON and equality never see them), with a `loc` whose line and
// column are worked out when first read, so a clean run (a plan included) computes no position.
//
// Compact on purpose (issue 28 item 9): a plan of 100,000 actions x 5 holds ~700,000 model
// objects. The path is kept as its JSON text (one string, ~48 bytes) and the file beside it in
// the slot V8 leaves free, rather than an origin object and a path array (~120 bytes more each).

import type { SourceLoc } from '../model/types.js';
import type { ConfigSource, Segment } from './source.js';

export interface Origin {
  src: ConfigSource;
  path: Segment[];
}

const PATH = Symbol('menuctl.origin');
const SOURCE = Symbol('menuctl.source');

type WithOrigin = { [PATH]?: string; [SOURCE]?: ConfigSource };

/** Locations given by assignment (`model.loc = ...`), which win over the origin's. */
const assigned = new WeakMap<object, SourceLoc>();

function getLoc(this: WithOrigin): SourceLoc | undefined {
  const given = assigned.get(this);
  if (given) return given;
  const src = this[SOURCE];
  return src ? src.lazyLocate(JSON.parse(this[PATH]!) as Segment[]) : undefined;
}

function setLoc(this: WithOrigin, loc: SourceLoc): void {
  assigned.set(this, loc);
}

/** Gives a model object its origin and a lazy `loc` (the model types' `loc?: SourceLoc`). */
export function attachOrigin<T extends object>(model: T, origin: Origin): T {
  Object.defineProperty(model, PATH, { value: JSON.stringify(origin.path) });
  Object.defineProperty(model, SOURCE, { value: origin.src });
  Object.defineProperty(model, 'loc', { get: getLoc, set: setLoc, configurable: true });
  return model;
}

export function originOf(model: object): Origin | undefined {
  const m = model as WithOrigin;
  const src = m[SOURCE];
  return src ? { src, path: JSON.parse(m[PATH]!) as Segment[] } : undefined;
}
