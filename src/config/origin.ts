// Where a model object came from: its file and its path there. Kept on the
// object under a symbol (not enumerable: copies, JSON and equality never see it), with a `loc`
// whose line and column are worked out when first read, so a clean run (a plan included, which
// keeps every resource's loc in case it reports one) computes no position at all.

import type { SourceLoc } from '../model/types.js';
import type { ConfigSource, Segment } from './source.js';

export interface Origin {
  src: ConfigSource;
  path: Segment[];
  loc?: SourceLoc;
}

const ORIGIN = Symbol('menuctl.origin');

type WithOrigin = { [ORIGIN]?: Origin };

function getLoc(this: WithOrigin): SourceLoc | undefined {
  const o = this[ORIGIN];
  if (!o) return undefined;
  o.loc ??= o.src.lazyLocate(o.path);
  return o.loc;
}

function setLoc(this: WithOrigin, loc: SourceLoc): void {
  if (this[ORIGIN]) this[ORIGIN].loc = loc;
}

/** Gives a model object its origin and a lazy `loc` (the model types' `loc?: SourceLoc`). */
export function attachOrigin<T extends object>(model: T, origin: Origin): T {
  Object.defineProperty(model, ORIGIN, { value: origin });
  Object.defineProperty(model, 'loc', { get: getLoc, set: setLoc, configurable: true });
  return model;
}

export function originOf(model: object): Origin | undefined {
  return (model as WithOrigin)[ORIGIN];
}
